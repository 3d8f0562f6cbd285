import { Heading, Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** The top of a REFPAY page section: its heading, the sentence that says what it is for, and anything after. */
export const SectionHeader = ({
  heading,
  intro,
  children,
}: {
  heading: string
  intro: ReactNode
  children?: ReactNode
}) => (
  <div className="px-6 py-4">
    <Heading level="h2">{heading}</Heading>
    <Text size="small" className="text-ui-fg-subtle">
      {intro}
    </Text>
    {children}
  </div>
)

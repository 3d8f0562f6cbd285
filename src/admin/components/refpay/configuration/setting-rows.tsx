import { Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** A titled list of settings, each a row with its label, its variable and its value. */
export const Group = ({ title, note, children }: { title: string; note?: string; children: ReactNode }) => (
  <section className="flex flex-col gap-y-2">
    <div>
      <Text size="small" weight="plus" leading="compact">
        {title}
      </Text>
      {note && (
        <Text size="xsmall" className="text-ui-fg-muted">
          {note}
        </Text>
      )}
    </div>
    <dl className="flex flex-col divide-y rounded-md border">{children}</dl>
  </section>
)

export const Row = ({
  label,
  variable,
  testId,
  children,
}: {
  label: string
  /** The environment variable that changes the setting, shown exactly (never translated). */
  variable?: string
  testId?: string
  children: ReactNode
}) => (
  <div className="grid grid-cols-2 items-center gap-x-4 px-3 py-2" data-testid={testId}>
    <dt className="flex flex-col">
      <Text size="small" leading="compact" className="text-ui-fg-subtle">
        {label}
      </Text>
      {variable && (
        <Text size="xsmall" leading="compact" className="text-ui-fg-muted font-mono">
          {variable}
        </Text>
      )}
    </dt>
    <dd className="min-w-0">{children}</dd>
  </div>
)

export const Value = ({ children, mono }: { children: ReactNode; mono?: boolean }) => (
  <Text size="small" leading="compact" className={mono ? "break-all font-mono" : undefined}>
    {children}
  </Text>
)

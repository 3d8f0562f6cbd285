import type { ConnectionText } from "../../api/admin/refpay/connection-test/connection-texts"

/** The values of a connection text that are words to translate too, and where their translations are. */
const TRANSLATED_VALUES: Record<string, string> = {
  service: "services",
  credentials: "credentials",
  environment_note: "environmentNotes",
  environment: "environmentNames",
  platform: "platforms",
  interface: "interfaces",
}

export type Translate = (key: string, options?: Record<string, unknown>) => string

/**
 * A sentence of the connection test in the admin's language: `refpay.connection.texts.<code>`, its values filled
 * in (the words among them translated first).
 */
export function sayConnectionText(t: Translate, text: ConnectionText): string {
  const values = Object.fromEntries(
    Object.entries(text.params).map(([name, value]) => [
      name,
      name in TRANSLATED_VALUES ? t(`refpay.connection.${TRANSLATED_VALUES[name]}.${value}`) : value,
    ])
  )
  return t(`refpay.connection.texts.${text.code}`, values)
}

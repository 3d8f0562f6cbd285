import type { ConnectionText } from "../../api/admin/refpay/connection-test/connection-texts"
import type { TestEventText } from "../../api/admin/refpay/webhooks/test-event/test-event-texts"
import type { WebhookWarning } from "../../api/admin/refpay/webhooks/webhook-health"
import { en } from "../i18n/en"
import { countKey } from "./format"

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

/** A sentence of "Send a test event" in the admin's language: `refpay.webhooks.testEvent.texts.<code>`, its values filled in. */
export function sayTestEventText(t: Translate, text: TestEventText): string {
  return t(`refpay.webhooks.testEvent.texts.${text.code}`, text.params)
}

/**
 * A webhook warning of the server's in the admin's language: `refpay.webhooks.warnings.*`, its times in the admin's
 * format (`when`), its reasons translated.
 */
export function sayWebhookWarning(t: Translate, when: (iso: string) => string, warning: WebhookWarning): string {
  const base = "refpay.webhooks.warnings"
  const { count, last_at, reason, accepted_since, last_delivery_at } = warning.params
  const counted = (code: string) => countKey(`${base}.texts.${code}`, Number(count))
  switch (warning.code) {
    case "refused_recently":
      return [
        t(counted(warning.code), { count, when: when(String(last_at)), reason: t(`${base}.refusalReasons.${reason}`) }),
        t(accepted_since ? `${base}.acceptedSince` : `${base}.giveSameSecret`),
      ].join(" ")
    case "malformed_recently": {
      // A reason this admin has no words for (a newer plugin's, in the same database) is shown as it is.
      const known = String(reason) in en.refpay.webhooks.warnings.malformedReasons
      const said = known ? t(`${base}.malformedReasons.${reason}`) : t(`${base}.malformedOtherReason`, { reason })
      return [
        t(counted(warning.code), { count, when: when(String(last_at)), reason: said }),
        t(`${base}.malformedIgnored`),
      ].join(" ")
    }
    case "no_recent_delivery": {
      const since = last_delivery_at
        ? t(`${base}.sinceLast`, { when: when(String(last_delivery_at)) })
        : t(`${base}.sinceEver`)
      return t(counted(warning.code), { count, since })
    }
    case "no_secret":
    case "url_not_https":
    case "url_not_public":
      return t(`${base}.texts.${warning.code}`)
  }
}

import { codedText, type CodedText } from "../../coded-text"

/**
 * The sentences of "Send a test event", as codes with the values they name (URLs, HTTP statuses, a transport's error
 * code): the admin UI says them in the admin's language (src/admin/i18n, `refpay.webhooks.testEvent.texts.<code>`),
 * as it does the connection test's (connection-test/connection-texts.ts).
 */
export type TestEventTextCode =
  // The test payment was created.
  | "sent_to_this_shop"
  | "sent_elsewhere"
  // Nothing was sent (the answer's `reason`).
  | "not_sandbox"
  | "no_sandbox_controls"
  | "no_webhook_url"
  | "creation_failed"
  // What the sandbox's delivery attempts show.
  | "controls_silent"
  | "not_tried_yet"
  | "delivered"
  | "refused_secret"
  | "shop_answered"
  | "not_delivered"

export type TestEventText = CodedText<TestEventTextCode>

/** A test event's text from its code and values. */
export const testEventText = codedText<TestEventTextCode>

import { model } from "@medusajs/framework/utils"

/**
 * Webhook deliveries the plugin did not take in, counted per webhook route, account, kind and reason: the
 * shop owner's only trace of them, since none is recorded in `refpay_webhook_event`. Nothing the caller sent is kept
 * (not the presented secret, not the body).
 * - `refused`: answered 401 for its secret (the body is not trusted); reasons missing_secret, wrong_secret,
 *   no_secret_configured (WebhookRefusalReason).
 * - `malformed`: authentic (the secret was right) but not a usable REFPAY event, acknowledged with 200; reasons
 *   not_json, not_an_object, no_event_type, no_payment_id (MalformedWebhookReason).
 * `reason` is text, so a new reason needs no migration.
 */
export const RefpayWebhookRejection = model
  .define("refpay_webhook_rejection", {
    id: model.id({ prefix: "rpwj" }).primaryKey(),
    /** "medusa": POST /hooks/payment/refpay_<id>; "refpay": POST /hooks/refpay (or /hooks/refpay/<id>). */
    route: model.enum(["medusa", "refpay"]),
    /** The REFPAY account the delivery was for (`pp_refpay_<id>`); empty when a refusal could not tell. */
    provider_id: model.text().default(""),
    kind: model.enum(["refused", "malformed"]),
    reason: model.text(),
    delivery_count: model.number().default(0),
    first_received_at: model.dateTime(),
    last_received_at: model.dateTime(),
  })
  // The key of the atomic upsert (webhook-rejections.ts); named, as the generated name would pass PostgreSQL's 63.
  .indexes([{ name: "IDX_refpay_webhook_rejection_key", on: ["route", "kind", "reason", "provider_id"], unique: true }])

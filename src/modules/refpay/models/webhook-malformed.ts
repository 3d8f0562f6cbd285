import { model } from "@medusajs/framework/utils"

/**
 * Authentic webhook deliveries (the secret was right) that were not usable REFPAY events, counted per webhook route,
 * registration and reason. They are acknowledged (200) and not recorded in `refpay_webhook_event` (there is no
 * payment to record them under), so this counter is how the shop owner learns that the platform sends something
 * the plugin cannot read. Nothing the platform sent is kept.
 */
export const RefpayWebhookMalformed = model
  .define("refpay_webhook_malformed", {
    id: model.id({ prefix: "rpwm" }).primaryKey(),
    /** "medusa": POST /hooks/payment/refpay_<id>; "refpay": POST /hooks/refpay (or /hooks/refpay/<id>). */
    door: model.enum(["medusa", "refpay"]),
    /** The REFPAY registration the delivery was for (`pp_refpay_<id>`). */
    provider_id: model.text().default(""),
    /** not_json, not_an_object, no_event_type, no_payment_id (MalformedWebhookReason); text, so a new reason needs no migration. */
    reason: model.text(),
    received_count: model.number().default(0),
    first_received_at: model.dateTime(),
    last_received_at: model.dateTime(),
  })
  .indexes([{ on: ["door", "reason", "provider_id"], unique: true }])

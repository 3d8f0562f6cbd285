import { model } from "@medusajs/framework/utils"

/**
 * Webhook deliveries refused for their secret, counted per webhook route and reason. A refused delivery is answered 401
 * before anything about it is recorded in `refpay_webhook_event` (its body is not trusted), so this counter is how
 * the shop owner learns that the platform is calling with a wrong or missing secret. Nothing the caller sent is
 * kept: not the presented secret, not the body.
 */
export const RefpayWebhookRefusal = model
  .define("refpay_webhook_refusal", {
    id: model.id({ prefix: "rpwr" }).primaryKey(),
    /** "medusa": POST /hooks/payment/refpay_<id>; "refpay": POST /hooks/refpay (or /hooks/refpay/<id>). */
    door: model.enum(["medusa", "refpay"]),
    /** The REFPAY registration the delivery was for (`pp_refpay_<id>`); empty when it could not be told. */
    provider_id: model.text().default(""),
    /**
     * missing_secret: no secret header nor Basic credentials; wrong_secret: a secret that is not the shop's;
     * no_secret_configured: the shop has no REFPAY_WEBHOOK_SECRET, so every delivery is refused.
     */
    reason: model.enum(["missing_secret", "wrong_secret", "no_secret_configured"]),
    refused_count: model.number().default(0),
    first_refused_at: model.dateTime(),
    last_refused_at: model.dateTime(),
  })
  .indexes([{ on: ["door", "reason", "provider_id"], unique: true }])

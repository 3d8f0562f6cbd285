import { model } from "@medusajs/framework/utils"

/**
 * One webhook delivery as received, through either route. `event_key` is unique: a repeated delivery of an event
 * already processed does nothing; one recorded but not processed (the platform was down) is processed again.
 */
export const RefpayWebhookEvent = model
  .define("refpay_webhook_event", {
    id: model.id({ prefix: "rpwh" }).primaryKey(),
    /** The platform's event_id, or a hash of the body when the event carries none. */
    event_key: model.text().unique(),
    event_type: model.text(),
    payment_id: model.text().index(),
    order_id: model.text().nullable(),
    /** The webhook route the first delivery came through: "medusa" (/hooks/payment/refpay_<id>) or "refpay" (/hooks/refpay). */
    route: model.enum(["medusa", "refpay"]),
    /** How many times a delivery of this event arrived. */
    deliveries: model.number().default(1),
    processed_at: model.dateTime().nullable(),
    /** What the sync did: captured, cancelled, none, unknown_payment, ... */
    outcome: model.text().nullable(),
  })
  // The admin page lists the latest deliveries first.
  .indexes([{ on: ["created_at"] }])

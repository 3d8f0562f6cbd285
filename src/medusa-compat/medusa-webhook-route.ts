import { PaymentWebhookEvents } from "@medusajs/framework/utils"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/**
 * Reliance on Medusa: its own webhook route, `POST /hooks/payment/<provider>`, answers 200 at once and emits
 * `payment.webhook_received` with the provider id and the request (parsed body, raw body, every header), delayed by
 * 5 s; the plugin's subscriber takes that event (its own route, /hooks/refpay, needs neither). The provider id comes
 * as the URL gave it, with or without `pp_`.
 */
export const MEDUSA_WEBHOOK_EVENT = "payment.webhook_received"

export const medusaWebhookRouteReliance: MedusaReliance = {
  name: "webhook-received-event",
  behaviour:
    "Medusa's own webhook route (/hooks/payment/<provider>) emits payment.webhook_received with the provider id and " +
    "the request's body, raw body and headers, which the plugin's subscriber takes (Medusa delays it 5 s).",
  upstream: "packages/medusa/src/api/hooks/payment/[provider]/route.ts; PaymentWebhookEvents",
  verified: VERIFIED_ON,
  usedBy: ["src/subscribers/refpay-webhook-received.ts", "src/api/medusa-routes/webhook-secret-check.ts"],
  async check() {
    if (PaymentWebhookEvents.WebhookReceived !== MEDUSA_WEBHOOK_EVENT)
      throw new Error(`the event is now ${String(PaymentWebhookEvents.WebhookReceived)}`)
  },
}

import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { webhookRouteRegistration } from "../../../admin-backend/registrations"
import { recordRefusedDelivery } from "../../../admin-backend/webhook-refusal"
import { handleRefpayWebhook } from "../../../sync/handle-webhook"

/**
 * The plugin's webhook route: the platform's webhook, recorded, then answered (handleRefpayWebhook). 401 wrong
 * secret, 413 too large (body parser limit in middlewares.ts), 400 a delivery to /hooks/refpay when the shop has
 * several REFPAY accounts, 200 once recorded: processed when its sync finished within REFPAY_WEBHOOK_ANSWER_WITHIN_MS,
 * accepted when it goes on (or waits its turn, or runs on a worker), 503 when it failed in that time (deliver it
 * again). An authentic delivery that is not a usable REFPAY event (no payment_id, not JSON) is answered 200 too, and
 * counted: see acknowledgeMalformed. A refused delivery is counted (route, registration, reason, when) for the
 * admin's REFPAY page; nothing it sent is kept.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const headers = req.headers as Record<string, unknown>
  const answer = await handleRefpayWebhook(req.scope, {
    body: req.rawBody ?? req.body,
    rawBody: req.rawBody,
    headers,
    route: "refpay",
    // /hooks/refpay/:id names the registration (several REFPAY accounts); /hooks/refpay is the only one.
    providerId: req.params.id ? `pp_refpay_${req.params.id}` : undefined,
  })
  if (answer.status === 401) {
    const providerId = await webhookRouteRegistration(
      req.scope,
      req.params.id ? `pp_refpay_${req.params.id}` : undefined
    )
    await recordRefusedDelivery(req.scope, "refpay", headers, providerId)
  }
  res.status(answer.status).json(answer.body)
}

import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { webhookRouteProviderId } from "../../refpay-accounts"
import { recordRefusedDelivery } from "../../../sync-triggers/webhook/refused-delivery"
import { refpayProviderFor } from "../../../providers/refpay/refpay-providers"
import { handleRefpayWebhook } from "../../../sync-triggers/webhook/handle-webhook"

/**
 * The plugin's webhook route: the platform's webhook, recorded, then answered (handleRefpayWebhook). 401 wrong
 * secret, 413 too large (body parser limit in middlewares.ts), 400 a delivery to /hooks/refpay when the shop has
 * several REFPAY accounts, 404 a delivery to /hooks/refpay/<id> for an account the shop does not have (see
 * answeredUnknownAccount), 200 once recorded: processed when its sync finished within
 * REFPAY_WEBHOOK_ANSWER_WITHIN_MS, accepted when it goes on (or waits its turn, or runs on a worker), 503 when it failed
 * in that time (deliver it again). An authentic delivery that is not a usable REFPAY event (no payment_id, not JSON) is
 * answered 200 too, and counted: see acknowledgeMalformed. A refused delivery is counted (route, account, reason,
 * when) for the admin's REFPAY page; nothing it sent is kept.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const headers = req.headers as Record<string, unknown>
  // /hooks/refpay/:id names the account (several REFPAY accounts); /hooks/refpay is the only one.
  const named = req.params.id ? `pp_refpay_${req.params.id}` : undefined
  if (named && (await answeredUnknownAccount(req, res, named))) return
  const answer = await handleRefpayWebhook(req.scope, {
    body: req.rawBody ?? req.body,
    rawBody: req.rawBody,
    headers,
    route: "refpay",
    providerId: named,
  })
  if (answer.status === 401) {
    const providerId = await webhookRouteProviderId(req.scope, named)
    await recordRefusedDelivery(req.scope, "refpay", headers, providerId)
  }
  res.status(answer.status).json(answer.body)
}

/**
 * Answers 404 with a generic body when the path names an account the shop does not have, and says so. The
 * lookup's own message (the module path, how to register the provider in medusa-config) is meant for the shop's
 * developer: anyone may call this route, so it goes to the log, and the caller learns nothing of the shop's
 * configuration. Medusa's webhook route answers the same (its middleware in src/api/medusa-routes/webhook-secret-check.ts).
 */
async function answeredUnknownAccount(req: MedusaRequest, res: MedusaResponse, providerId: string): Promise<boolean> {
  try {
    await refpayProviderFor(req.scope, providerId)
    return false
  } catch (error) {
    if (!(error instanceof MedusaError) || error.type !== MedusaError.Types.NOT_FOUND) throw error
    req.scope
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .warn(`REFPAY: a webhook delivery to ${req.originalUrl} was answered 404: ${error.message}`)
    res.status(404).json({ type: "not_found", message: "Not found" })
    return true
  }
}

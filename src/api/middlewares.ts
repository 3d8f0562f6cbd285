import { defineMiddlewares, type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { assertRefpayOrderFulfillable } from "../providers/refpay/fulfilment-rules"
import { isRefpayProviderId } from "../providers/refpay/registry"
import { door1Proof, DOOR1_PROOF_HEADER, SECRET_BEARING_HEADERS, webhookSecretMatches } from "../providers/refpay/webhook"
import { refpayProvider } from "../workflows/refpay-sync/provider"
import { loadOrderCollections } from "../workflows/refpay-guard/load-collections"

/** Webhook bodies are small JSON events; anything over this is refused with 413 before it is read further. */
export const WEBHOOK_BODY_LIMIT = "64kb"

/** Refuses a fulfilment of an unpaid REFPAY order before any side effect (the workflow has no validate hook). */
async function refpayFulfilmentGuard(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    assertRefpayOrderFulfillable(await loadOrderCollections(req.scope, req.params.id))
    next()
  } catch (error) {
    next(error)
  }
}

/**
 * Door 1 (`POST /hooks/payment/refpay_<id>`): Medusa copies every header into its `payment.webhook_received` event.
 * The secret is checked here and replaced by a proof (an HMAC of the body), so it never travels with the event.
 */
async function refpayDoor1Secret(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const provider = String(req.params.provider ?? "")
    if (!isRefpayProviderId(provider.startsWith("pp_") ? provider : `pp_${provider}`)) return next()
    const secret = (await refpayProvider(req.scope)).settings.webhookSecret
    const matches = webhookSecretMatches(req.headers as Record<string, unknown>, secret)
    for (const name of [...SECRET_BEARING_HEADERS, DOOR1_PROOF_HEADER]) delete req.headers[name]
    if (matches && secret) {
      req.headers[DOOR1_PROOF_HEADER] = door1Proof(secret, Buffer.from(JSON.stringify(req.body ?? null)))
    }
    next()
  } catch (error) {
    next(error)
  }
}

export default defineMiddlewares({
  routes: [
    {
      matcher: "/hooks/refpay",
      method: ["POST"],
      bodyParser: { preserveRawBody: true, sizeLimit: WEBHOOK_BODY_LIMIT },
    },
    {
      matcher: "/hooks/payment/:provider",
      method: ["POST"],
      middlewares: [refpayDoor1Secret],
    },
    {
      matcher: "/admin/orders/:id/fulfillments",
      method: ["POST"],
      middlewares: [refpayFulfilmentGuard],
    },
  ],
})

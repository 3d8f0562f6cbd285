import { defineMiddlewares, type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { assertRefpayOrderFulfillable } from "../providers/refpay/fulfilment-rules"
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

export default defineMiddlewares({
  routes: [
    {
      matcher: "/hooks/refpay",
      method: ["POST"],
      bodyParser: { preserveRawBody: true, sizeLimit: WEBHOOK_BODY_LIMIT },
    },
    {
      matcher: "/admin/orders/:id/fulfillments",
      method: ["POST"],
      middlewares: [refpayFulfilmentGuard],
    },
  ],
})

import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { asError } from "../../medusa-compat/runas-step-errors"
import { assertRefpayOrderFulfillable } from "../../rules/fulfillment-rules"
import { assertStoreMayReplaceSessions } from "../../rules/placed-order-sessions"
import { loadCollectionOfOrder, loadOrderCollections } from "../../queries/order-collections"

/** Refuses a fulfilment of an unpaid REFPAY order before any side effect (the workflow has no validate hook). */
export async function refpayFulfillmentGuard(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    assertRefpayOrderFulfillable(await loadOrderCollections(req.scope, req.params.id))
    next()
  } catch (error) {
    next(asError(error))
  }
}

/** A store request never replaces the sessions of a placed order's collection while its REFPAY reference is live. */
export async function refpayPlacedOrderSessions(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    assertStoreMayReplaceSessions(await loadCollectionOfOrder(req.scope, String(req.params.id)))
    next()
  } catch (error) {
    next(asError(error))
  }
}

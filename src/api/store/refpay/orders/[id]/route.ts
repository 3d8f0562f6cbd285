import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { loadOrderPaymentView } from "../../../../../queries/payment-view"
import { storeReferenceHistory } from "../../../../../rules/payment-view"

/**
 * `GET /store/refpay/orders/:id`: entity, reference, amount and expiry of an order's current REFPAY reference, for
 * the thank-you page, and the references it replaced on the same payment collection (`previous_references`: an
 * expired one after a renewal, one an edit of the order replaced, so a page can say "expired, a new reference has been
 * sent"). A difference paid on another collection is in `/store/refpay/orders/:id/payment-requests`. Medusa requires the publishable key on /store routes.
 * Like Medusa's own `GET /store/orders/:id`, the order id (unguessable) is what gives access; the answer holds
 * nothing about the customer. 404 when the order does not exist or was not paid with REFPAY.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const { view, replaced } = await loadOrderPaymentView(req.scope, req.params.id)
  res.status(200).json({ refpay: view, previous_references: storeReferenceHistory(view, replaced) })
}

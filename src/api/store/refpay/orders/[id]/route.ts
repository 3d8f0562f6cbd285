import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { loadOrderPaymentView } from "../../../../../workflows/refpay-view/load-payment-view"

/**
 * `GET /store/refpay/orders/:id`: entity, reference, amount and expiry of an order's REFPAY payment, for the
 * thank-you page. Medusa requires the publishable key on /store routes. Like Medusa's own `GET /store/orders/:id`,
 * the order id (unguessable) is what gives access; the answer holds nothing about the customer. 404 when the
 * order does not exist or was not paid with REFPAY.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const { view } = await loadOrderPaymentView(req.scope, req.params.id)
  res.status(200).json({ refpay: view })
}

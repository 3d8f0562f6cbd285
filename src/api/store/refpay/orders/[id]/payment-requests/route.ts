import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { loadPaymentRequestsView } from "../../../../../../queries/order-payment-requests"
import { requestRefpayPayment } from "../../../../../payment-requests"
import type { RefpayPaymentRequestBodyType } from "../../../../../admin/refpay/validators"

/**
 * `GET /store/refpay/orders/:id/payment-requests`: what the order still owes and each payment collection's state and
 * REFPAY reference, for a storefront's order page. Like `GET /store/refpay/orders/:id`, the (unguessable) order id
 * gives access and the answer holds nothing about the customer.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.status(200).json(await loadPaymentRequestsView(req.scope, req.params.id))
}

/**
 * `POST /store/refpay/orders/:id/payment-requests`: the customer asks for the reference of an outstanding amount
 * (`payment_collection_id` from the GET). Idempotent: asking again answers the same reference while it can be paid.
 */
export async function POST(req: MedusaRequest<RefpayPaymentRequestBodyType>, res: MedusaResponse): Promise<void> {
  const { payment_collection_id } = req.validatedBody
  res.status(200).json(await requestRefpayPayment(req.scope, req.params.id, payment_collection_id, "shopper"))
}

import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { requestRefpayPayment } from "../../../../payment-requests"
import { loadPaymentCollectionAnswer, orderOfPaymentCollection } from "./payment-collection-view"

/**
 * `GET /store/refpay/payment-collections/:id`: what the payment collection owes, its state and its REFPAY reference,
 * for the storefront page Medusa's admin "Copy payment link" points at (`<storefront>/payment-collection/<id>`). Like
 * the order routes, the unguessable id is what gives access, and the answer holds nothing about the customer (no
 * order id, no address, no e-mail). 404 unless the collection belongs to a placed order.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const orderId = await orderOfPaymentCollection(req.scope, req.params.id)
  res.status(200).json(await loadPaymentCollectionAnswer(req.scope, orderId, req.params.id))
}

/**
 * `POST /store/refpay/payment-collections/:id` (empty body): the customer asks for this collection's reference,
 * through the same workflow and refusal rules as `POST /store/refpay/orders/:id/payment-requests` (the shop's
 * "requests from the store" setting, amount limits, one payable reference per collection). Idempotent: asking again
 * answers the reference that can still be paid. Answers as the GET does.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const orderId = await orderOfPaymentCollection(req.scope, req.params.id)
  await requestRefpayPayment(req.scope, orderId, req.params.id, "shopper")
  res.status(200).json(await loadPaymentCollectionAnswer(req.scope, orderId, req.params.id))
}

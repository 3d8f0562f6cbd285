import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { loadPaymentRequestsView } from "../../../../../../queries/order-payment-requests"
import { requestRefpayPayment } from "../../../../../payment-requests"
import type { RefpayPaymentRequestBodyType } from "../../../validators"

/**
 * `GET /admin/refpay/orders/:id/payment-requests`: what the order still owes (`outstanding_cents`) and each of its
 * payment collections with its state (`paid`, `awaiting_refpay`, `requestable`, `nothing_due`) and REFPAY reference.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  res.status(200).json(await loadPaymentRequestsView(req.scope, req.params.id))
}

/**
 * `POST /admin/refpay/orders/:id/payment-requests` ("Request payment by REFPAY"): a reference for exactly what the
 * collection asks for, e-mailed to the customer; the reference already waiting when there is one. 400 when the order
 * has nothing to pay, 404 when the collection is not the order's.
 */
export async function POST(
  req: AuthenticatedMedusaRequest<RefpayPaymentRequestBodyType>,
  res: MedusaResponse
): Promise<void> {
  const { payment_collection_id } = req.validatedBody
  res.status(200).json(await requestRefpayPayment(req.scope, req.params.id, payment_collection_id, "admin"))
}

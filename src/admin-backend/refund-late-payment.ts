import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { refundPaymentOfCanceledOrder } from "./refund-cancelled-order-payment"
import { loadPaymentRows, type AdminPaymentRow } from "./payment-rows"

export interface LateRefundResult {
  payment_id: string
  order_id: string
  refunded_cents: number
}

/**
 * Refunds everything still held of a payment flagged as paid after its order was cancelled (under the session's
 * sync lock, see refund-cancelled-order-payment.ts).
 */
export async function refundLatePayment(
  container: MedusaContainer,
  sessionId: string,
  actorId: string | undefined,
  secrets: (string | undefined)[]
): Promise<LateRefundResult> {
  const [row] = await loadPaymentRows(container, [sessionId], secrets)
  const { payment, order } = refundable(row, sessionId)
  // The row says which session's lock to take: the payment is read again only under it.
  const refunded = await refundPaymentOfCanceledOrder(
    container,
    { id: payment.id, payment_session_id: sessionId },
    { note: "REFPAY: paid after the order was cancelled (refunded from the REFPAY page)" },
    actorId
  )
  return { payment_id: payment.id, order_id: order.id, refunded_cents: refunded }
}

function refundable(row: AdminPaymentRow | undefined, sessionId: string) {
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `REFPAY payment session ${sessionId} was not found`)
  if (!row.paid_after_cancellation_at || !row.order || row.order.status !== "canceled") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "Only a payment received after its order was cancelled is refunded here; refund other payments from the order page."
    )
  }
  if (!row.payment || row.payment.refundable_cents <= 0) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "Nothing is left to refund on this payment: it was refunded already."
    )
  }
  return { payment: row.payment, order: row.order, held: row.payment.refundable_cents }
}

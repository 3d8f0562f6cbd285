import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { refundPaymentOfCanceledOrder } from "../../../medusa-routes/refund-cancelled-order-payment"
import { loadPaymentRows, type AdminPaymentRow } from "../payment-rows"
import { refpayDeletedSessionWorkflow } from "../../../../workflows/refpay-sync/deleted-session"

export interface LateRefundResult {
  /** Medusa's payment refunded; null for a reference whose session Medusa deleted (refunded on the platform only). */
  payment_id: string | null
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
  if (row?.session_status === "deleted") return refundDeletedSessionPayment(container, row)
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

/**
 * The late payment of a reference whose session Medusa deleted: refunded on the platform from the plugin's own
 * record (refpayDeletedSessionWorkflow), since Medusa holds no payment for it.
 */
async function refundDeletedSessionPayment(
  container: MedusaContainer,
  row: AdminPaymentRow
): Promise<LateRefundResult> {
  if (!row.paid_after_cancellation_at || !row.order)
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "Only a payment received after its order was cancelled is refunded here; refund other payments from the order page."
    )
  const { result } = await refpayDeletedSessionWorkflow(container).run({
    input: { sessionId: row.payment_session_id, now: new Date().toISOString(), refund: "owner" },
  })
  return { payment_id: null, order_id: row.order.id, refunded_cents: result.refundedCents }
}

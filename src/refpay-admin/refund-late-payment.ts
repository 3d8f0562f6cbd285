import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { fromCents } from "../rules/money"
import { refundRefpayLatePaymentWorkflow } from "../workflows/refpay-refund/refund-on-cancelled-order"
import { refpaySessionLockKey } from "../workflows/refpay-sync/sync-payment"
import { loadPaymentRows, type AdminPaymentRow } from "./payment-rows"

export interface LateRefundResult {
  payment_id: string
  order_id: string
  refunded_cents: number
}

const LOCK_TIMEOUT_SECONDS = 30

/**
 * Refunds everything still held of a payment flagged as paid after its order was cancelled. Runs under the
 * session's sync lock, so a webhook or the poll job cannot record the same refund a second time meanwhile.
 */
export async function refundLatePayment(
  container: MedusaContainer,
  sessionId: string,
  actorId: string | undefined,
  secrets: (string | undefined)[]
): Promise<LateRefundResult> {
  const locking = container.resolve<ILockingModule>(Modules.LOCKING)
  return locking.execute(
    refpaySessionLockKey(sessionId),
    async () => {
      const [row] = await loadPaymentRows(container, [sessionId], secrets)
      const { payment, order, held } = refundable(row, sessionId)
      await refundRefpayLatePaymentWorkflow(container).run({
        input: {
          payment_id: payment.id,
          order_id: order.id,
          currency_code: "eur",
          amount: fromCents(held),
          created_by: actorId,
          note: "REFPAY: paid after the order was cancelled (refunded from the REFPAY page)",
        },
      })
      return { payment_id: payment.id, order_id: order.id, refunded_cents: held }
    },
    { timeout: LOCK_TIMEOUT_SECONDS }
  )
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
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Nothing is left to refund on this payment: it was refunded already.")
  }
  return { payment: row.payment, order: row.order, held: row.payment.refundable_cents }
}

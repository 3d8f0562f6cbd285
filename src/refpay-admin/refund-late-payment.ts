import { addOrderTransactionStep, emitEventStep, refundPaymentStep } from "@medusajs/core-flows"
import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { MathBN, MedusaError, Modules, PaymentEvents } from "@medusajs/framework/utils"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { fromCents } from "../providers/refpay/money"
import { refpaySessionLockKey } from "../workflows/refpay-sync/sync-payment"
import { loadPaymentRows, type AdminPaymentRow } from "./payment-rows"

/**
 * The attention list's "Refund" of a payment received after its order was cancelled.
 *
 * Medusa 2.21.2's `refundPaymentWorkflow` (behind `POST /admin/payments/:id/refund` and the order page's Refund)
 * cannot finish on a cancelled order: after the payment module has refunded (the money is gone back), its last
 * step books the amount as an order credit line, which refuses cancelled orders ("Order ... has been canceled"), so
 * the shop owner sees an error for a refund that happened. This workflow is Medusa's refund without that step:
 * the same `refundPaymentStep` (the payment module calls the provider, which refunds on the platform, and records
 * the Refund), the same order transaction, the same `payment.refunded` event. A credit line is how an order edit
 * owes money back; a cancelled order has none to balance.
 */
export interface RefundLatePaymentInput {
  payment_id: string
  order_id: string
  currency_code: string
  /** Major units (24.98). */
  amount: number
  created_by?: string
  note: string
}

export const refundRefpayLatePaymentWorkflow = createWorkflow("refpay-refund-late-payment", (input: RefundLatePaymentInput) => {
  const payment = refundPaymentStep(
    transform({ input }, ({ input }) => ({ payment_id: input.payment_id, amount: input.amount, created_by: input.created_by, note: input.note }))
  )
  // One order transaction per refund of the payment; the step skips the ones the order already has.
  const transactions = transform({ input, payment }, ({ input, payment }) =>
    (payment.refunds ?? []).map((refund) => ({
        order_id: input.order_id,
        amount: MathBN.mult(refund.raw_amount ?? refund.amount, -1),
        currency_code: payment.currency_code ?? input.currency_code,
        reference_id: refund.id,
        reference: "refund",
      }))
  )
  addOrderTransactionStep(transactions)
  emitEventStep({ eventName: PaymentEvents.REFUNDED, data: { id: input.payment_id } })
  return new WorkflowResponse(payment)
})

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

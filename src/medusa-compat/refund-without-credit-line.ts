import { addOrderTransactionStep, emitEventStep, refundPaymentStep } from "@medusajs/medusa/core-flows"
import { MathBN, PaymentEvents } from "@medusajs/framework/utils"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"
import { stepsOf } from "./workflow-steps"

/**
 * A refund of a payment whose order is cancelled: the attention list's "Refund" of a late payment, the automatic
 * refund of one, Medusa's own refund route for such a payment (src/api/medusa-routes/locked-money-routes.ts), and the sync recording a
 * refund the platform made when a cancellation met the customer's payment.
 *
 * Reliance on Medusa (a fork of its workflow): Medusa's `refundPaymentWorkflow` (behind `POST /admin/payments/:id/refund` and the order page's Refund)
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
  /** Major units (24.98), whole cents: callers convert with `toWholeCents` or from cents, never round a fraction. */
  amount: number
  created_by?: string
  note: string
  refund_reason_id?: string
}

export const refundRefpayLatePaymentWorkflow = createWorkflow(
  "refpay-refund-late-payment",
  (input: RefundLatePaymentInput) => {
    const payment = refundPaymentStep(
      transform({ input }, ({ input }) => ({
        payment_id: input.payment_id,
        amount: input.amount,
        created_by: input.created_by,
        note: input.note,
        refund_reason_id: input.refund_reason_id,
      }))
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
  }
)

/** The steps of Medusa's refund this fork repeats, and the one it leaves out. */
const MIRRORED_STEPS = ["refund-payment-step", "add-order-transaction", "emit-event-step"]
const LEFT_OUT_STEP = "create-order-refund-credit-lines-as-step"

export const refundWithoutCreditLineReliance: MedusaReliance = {
  name: "refund-without-credit-line",
  behaviour:
    "Medusa's refundPaymentWorkflow is refundPaymentStep, an order transaction, a credit line (which refuses a " +
    "cancelled order) and payment.refunded: the plugin's fork for cancelled orders repeats all of it but the credit line.",
  upstream: "packages/core/core-flows/src/order/workflows/payments/refund-payment.ts",
  verified: VERIFIED_ON,
  usedBy: ["src/medusa-compat/refund-without-credit-line.ts", "src/api/medusa-routes/locked-money-routes.ts"],
  async check() {
    const steps = stepsOf("refund-payment-workflow")
    const missing = MIRRORED_STEPS.filter((step) => !steps.includes(step))
    if (missing.length)
      throw new Error(`Medusa's refund no longer has ${missing.join(", ")}: the fork must follow (steps: ${steps})`)
    if (!steps.includes(LEFT_OUT_STEP))
      throw new Error(`Medusa's refund has no ${LEFT_OUT_STEP} any more: the fork may be dropped (steps: ${steps})`)
  },
}

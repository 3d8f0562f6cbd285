import { MedusaError } from "@medusajs/framework/utils"
import {
  createStep,
  createWorkflow,
  StepResponse,
  transform,
  WorkflowResponse,
} from "@medusajs/framework/workflows-sdk"
import { fromCents, paymentCents } from "../../rules/money"
import { refundRefpayLatePaymentWorkflow } from "../../medusa-compat/refund-without-credit-line"
import { loadCanceledOrderPayment } from "../../queries/canceled-order-payment"
import { acquireLeasedLock, releaseLeasedLock } from "../locks/leased-lock"
import { refpaySessionLockKey } from "../refpay-sync/session-lock"
import { assertNoUnrecordedPlatformRefund } from "./unrecorded-platform-refund"

export interface RefundCanceledOrderPaymentInput {
  payment_id: string
  payment_session_id: string
  /** Whole cents asked (the caller refuses a fraction of a cent); all that is held when absent. */
  cents?: number
  created_by?: string
  note?: string
  refund_reason_id?: string
}

/**
 * Under the session's lock: the payment read again (this read is the one the refund trusts: the held amount is what
 * no one else is recording right now), no unrecorded platform refund, and the cents asked within what is held.
 */
const planCanceledOrderRefundStep = createStep(
  "refpay-plan-cancelled-order-refund",
  async (input: RefundCanceledOrderPaymentInput, { container }) => {
    await assertNoUnrecordedPlatformRefund(container, input.payment_session_id)
    const locked = await loadCanceledOrderPayment(container, input.payment_id)
    if (!locked)
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Payment ${input.payment_id} is not a REFPAY payment of a cancelled order`
      )
    const held = paymentCents(locked).refundable_cents
    const cents = input.cents ?? held
    if (cents <= 0 || cents > held) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `You are not allowed to refund more than the captured amount (${held} cents are held)`
      )
    }
    return new StepResponse({
      cents,
      refund: {
        payment_id: locked.id,
        order_id: locked.payment_collection?.order?.id as string,
        currency_code: locked.currency_code,
        amount: fromCents(cents),
        created_by: input.created_by,
        note: input.note ?? "REFPAY: refund of a payment whose order is cancelled",
        refund_reason_id: input.refund_reason_id,
      },
    })
  }
)

/**
 * A refund of a REFPAY payment whose order is cancelled (Medusa's refund route for it, the attention list's
 * "Refund"): under the session's lock (a webhook or the poll job cannot record the same refund meanwhile), Medusa's
 * refund without the credit line (medusa-compat/refund-without-credit-line.ts). Answers the cents refunded.
 */
export const refundCanceledOrderPaymentWorkflow = createWorkflow(
  "refpay-refund-cancelled-order-payment",
  (input: RefundCanceledOrderPaymentInput) => {
    const lock = acquireLeasedLock(
      transform({ input }, ({ input }) => ({ key: refpaySessionLockKey(input.payment_session_id) }))
    )
    const plan = planCanceledOrderRefundStep(input)
    refundRefpayLatePaymentWorkflow.runAsStep({ input: plan.refund })
    releaseLeasedLock(lock)
    return new WorkflowResponse(plan.cents)
  }
)

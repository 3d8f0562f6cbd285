import type { MedusaContainer } from "@medusajs/framework/types"
import { asError } from "../../medusa-compat/runas-step-errors"
import { toWholeCents } from "../../rules/money"
import type { MedusaRefundBody, PaymentToRefund } from "../../queries/canceled-order-payment"
import { refundCanceledOrderPaymentWorkflow } from "../../workflows/refpay-refund/refund-cancelled-order"

export {
  loadCanceledOrderPayment as refpayPaymentOfCanceledOrder,
  type MedusaRefundBody,
  type PaymentToRefund,
} from "../../queries/canceled-order-payment"

/**
 * Refunds `body.amount` (all that is still held when absent) of a REFPAY payment whose order is cancelled, under
 * the session's sync lock (a webhook or the poll job cannot record the same refund meanwhile). A fraction of a cent
 * (12.495 EUR) is refused, never rounded, as on every refund path (`toWholeCents`), and more than is held is refused,
 * both before anything is sent to the platform. Answers the cents refunded.
 *
 * `payment` is the payment as the caller read it already (`refpayPaymentOfCanceledOrder`, or an admin payment row:
 * its id and session). It is read once more under the lock, and that read is the one the refund trusts: the held
 * amount is what no one else is recording right now.
 */
export async function refundPaymentOfCanceledOrder(
  container: MedusaContainer,
  payment: PaymentToRefund,
  body: MedusaRefundBody,
  actorId: string | undefined
): Promise<number> {
  const { result } = await refundCanceledOrderPaymentWorkflow(container)
    .run({
      input: {
        payment_id: payment.id,
        payment_session_id: payment.payment_session_id,
        cents: body.amount === undefined ? undefined : toWholeCents(body.amount),
        created_by: actorId,
        note: body.note,
        refund_reason_id: body.refund_reason_id,
      },
    })
    .catch((error: unknown) => {
      throw asError(error)
    })
  return result
}

import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { fromCents, paymentCents, toWholeCents, type PaymentAmounts } from "../rules/money"
import { isRefpayProviderId } from "../rules/provider-ids"
import { refundRefpayLatePaymentWorkflow } from "../medusa-compat/refund-without-credit-line"
import { refpaySessionLockKey, SESSION_LOCK_WAIT_SECONDS } from "../workflows/refpay-sync/session-lock"
import { assertNoUnrecordedPlatformRefund } from "./money-route-locks"

/** The body of Medusa's `POST /admin/payments/:id/refund` (amount in major units, as Medusa takes it). */
export interface MedusaRefundBody {
  amount?: number
  note?: string
  refund_reason_id?: string
}

interface PaymentOfOrder extends PaymentAmounts {
  id: string
  provider_id: string
  payment_session_id: string
  currency_code: string
  payment_collection?: { order?: { id: string; status: string } | null } | null
}

/** What a refund needs to know before taking the lock: the payment and the session whose lock guards it. */
export type PaymentToRefund = Pick<PaymentOfOrder, "id" | "payment_session_id">

/**
 * Whether Medusa's own refund route would fail half-way for this payment: a REFPAY payment whose order is
 * cancelled (Medusa's refund workflow refunds through the provider, then refuses to book the credit line on a
 * cancelled order, so the money goes back while the shop owner is told it did not). Such a refund is done here
 * instead, with the same steps minus the credit line.
 */
export async function refpayPaymentOfCanceledOrder(
  container: MedusaContainer,
  paymentId: string
): Promise<PaymentOfOrder | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment",
    fields: [
      "id",
      "provider_id",
      "payment_session_id",
      "currency_code",
      "captures.raw_amount",
      "refunds.raw_amount",
      "payment_collection.order.id",
      "payment_collection.order.status",
    ],
    filters: { id: paymentId },
  })
  const payment = data[0] as PaymentOfOrder | undefined
  if (!payment || !isRefpayProviderId(payment.provider_id)) return undefined
  return payment.payment_collection?.order?.status === "canceled" ? payment : undefined
}

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
  const asked = body.amount === undefined ? undefined : toWholeCents(body.amount)
  const locking = container.resolve<ILockingModule>(Modules.LOCKING)
  return locking.execute(
    refpaySessionLockKey(payment.payment_session_id),
    async () => {
      await assertNoUnrecordedPlatformRefund(container, payment.payment_session_id)
      const locked = await paymentOfCanceledOrder(container, payment.id)
      const held = paymentCents(locked).refundable_cents
      const cents = asked ?? held
      if (cents <= 0 || cents > held) {
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          `You are not allowed to refund more than the captured amount (${held} cents are held)`
        )
      }
      await refundRefpayLatePaymentWorkflow(container).run({
        input: {
          payment_id: locked.id,
          order_id: locked.payment_collection?.order?.id as string,
          currency_code: locked.currency_code,
          amount: fromCents(cents),
          created_by: actorId,
          note: body.note ?? "REFPAY: refund of a payment whose order is cancelled",
          refund_reason_id: body.refund_reason_id,
        },
      })
      return cents
    },
    { timeout: SESSION_LOCK_WAIT_SECONDS }
  )
}

async function paymentOfCanceledOrder(container: MedusaContainer, paymentId: string): Promise<PaymentOfOrder> {
  const payment = await refpayPaymentOfCanceledOrder(container, paymentId)
  if (!payment)
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Payment ${paymentId} is not a REFPAY payment of a cancelled order`
    )
  return payment
}

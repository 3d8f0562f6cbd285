import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { PaymentAmounts } from "../rules/money"
import { isRefpayProviderId } from "../rules/provider-ids"

/** The body of Medusa's `POST /admin/payments/:id/refund` (amount in major units, as Medusa takes it). */
export interface MedusaRefundBody {
  amount?: number
  note?: string
  refund_reason_id?: string
}

export interface PaymentOfOrder extends PaymentAmounts {
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
export async function loadCanceledOrderPayment(
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

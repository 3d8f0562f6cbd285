import type { MedusaContainer } from "@medusajs/framework/types"
import { asError } from "../medusa-compat/runas-step-errors"
import { toMedusaError, type ErrorAudience } from "../rules/platform-errors"
import { loadPaymentRequestsView, type PaymentRequestCollectionView } from "../queries/order-payment-requests"
import { requestRefpayPaymentWorkflow } from "../workflows/refpay-request/request-payment"

/**
 * The answer to a payment request, for the admin's and the store's route alike: the collection paid and its
 * reference (entity, reference, amount and deadline exactly as the platform issued them).
 */
export async function requestRefpayPayment(
  container: MedusaContainer,
  orderId: string,
  paymentCollectionId: string | undefined,
  audience: ErrorAudience
): Promise<PaymentRequestCollectionView & { payment_collection_id: string; issued: boolean }> {
  let result
  try {
    ;({ result } = await requestRefpayPaymentWorkflow(container).run({
      input: {
        order_id: orderId,
        payment_collection_id: paymentCollectionId,
        requested_by: audience === "admin" ? "admin" : "customer",
      },
    }))
  } catch (error) {
    throw toMedusaError(asError(error), "issue a payment reference", audience)
  }
  const { collections } = await loadPaymentRequestsView(container, orderId)
  const collection = collections.find((c) => c.id === result.payment_collection_id)!
  return { ...collection, payment_collection_id: collection.id, issued: result.issued }
}

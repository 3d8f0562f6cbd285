import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { isPlacedOrder, loadCollectionOfOrder } from "../../../../../queries/order-collections"
import {
  loadPaymentRequestsView,
  type PaymentRequestCollectionView,
} from "../../../../../queries/order-payment-requests"

/** What `/store/refpay/payment-collections/:id` answers: the collection, and whether REFPAY can take its payment. */
export interface PaymentCollectionAnswer {
  payment_collection: PaymentRequestCollectionView
  /** A REFPAY account can take this payment (a customer's request may still be refused by the shop's rules). */
  refpay_available: boolean
}

/**
 * The placed order a payment collection belongs to; 404 for a cart's collection, a draft order's, or an unknown id,
 * with one sentence for all, so the route tells nobody which collection ids exist.
 */
export async function orderOfPaymentCollection(container: MedusaContainer, collectionId: string): Promise<string> {
  const { orderId } = await loadCollectionOfOrder(container, collectionId)
  if (!orderId || !(await isPlacedOrder(container, orderId)))
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment collection ${collectionId} was not found`)
  return orderId
}

/** The collection as the order's payment-requests view shows it (state, amount, its REFPAY reference); no platform call. */
export async function loadPaymentCollectionAnswer(
  container: MedusaContainer,
  orderId: string,
  collectionId: string
): Promise<PaymentCollectionAnswer> {
  const view = await loadPaymentRequestsView(container, orderId)
  const collection = view.collections.find((c) => c.id === collectionId)
  if (!collection)
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment collection ${collectionId} was not found`)
  // A payment link is shared (the shop owner copies it into a message): it must not lead to the order, whose store
  // route shows the customer's e-mail and address. The reference's view names its order; the link's answer does not.
  const refpay = collection.refpay && { ...collection.refpay, order_id: null }
  return { payment_collection: { ...collection, refpay }, refpay_available: view.refpay_available }
}

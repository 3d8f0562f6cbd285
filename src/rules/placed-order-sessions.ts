import { MedusaError } from "@medusajs/framework/utils"
import { isRefpayProviderId } from "./provider-ids"

/** A payment collection as the store's session route would change it. */
export interface CollectionOfOrder {
  /** The order the collection belongs to; none for a cart's collection before checkout. */
  orderId: string | null
  sessions: { provider_id: string; status: string; data?: Record<string, unknown> | null }[]
}

/**
 * Whether the store's `POST /store/payment-collections/:id/payment-sessions` may replace this collection's sessions.
 * Medusa 2.21.2 checks no ownership there and deletes the collection's other sessions, which would cancel a placed
 * order's live REFPAY reference (the one the customer was e-mailed): refused while the order has one. A cart's
 * collection, or an order whose reference is cancelled, is left to Medusa.
 */
export function assertStoreMayReplaceSessions(collection: CollectionOfOrder): void {
  if (!collection.orderId) return
  const live = collection.sessions.some(
    (session) => isRefpayProviderId(session.provider_id) && !!session.data?.refpay && session.status !== "canceled"
  )
  if (live) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "This order's payment reference has already been issued and cannot be replaced. / A referência de pagamento desta encomenda já foi emitida e não pode ser substituída."
    )
  }
}

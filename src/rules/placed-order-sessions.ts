import { MedusaError } from "@medusajs/framework/utils"
import { isRefpayProviderId } from "./provider-ids"

/** A payment collection as the store's session route would change it. */
export interface CollectionOfOrder {
  /** The order the collection belongs to; none for a cart's collection before checkout. */
  orderId: string | null
  sessions: { id: string; provider_id: string; status: string; data?: Record<string, unknown> | null }[]
}

/**
 * Whether the store's `POST /store/payment-collections/:id/payment-sessions` may replace this collection's sessions.
 * Medusa checks no ownership there and deletes the collection's other sessions. On a placed order's collection that
 * would cancel a live REFPAY reference (the one the customer was e-mailed), or forget a cancelled or expired one
 * that a late bank settlement can still pay (its session is where that payment is recorded, flagged and refunded
 * from): refused while the collection holds any REFPAY reference. A cart's collection is left to Medusa.
 */
export function assertStoreMayReplaceSessions(collection: CollectionOfOrder): void {
  if (!collection.orderId) return
  const referenced = collection.sessions.some(
    (session) => isRefpayProviderId(session.provider_id) && !!session.data?.refpay
  )
  if (referenced) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "This order's payment reference has already been issued and cannot be replaced. / A referência de pagamento desta encomenda já foi emitida e não pode ser substituída."
    )
  }
}

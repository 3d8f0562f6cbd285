import { MedusaError } from "@medusajs/framework/utils"
import { PAID_COLLECTION_STATUSES } from "./outstanding"
import { isRefpayProviderId } from "./provider-ids"

export interface GuardedCollection {
  status?: string | null
  amount?: unknown
  captured_amount?: unknown
  payment_sessions?:
    { provider_id?: string | null; status?: string | null; data?: Record<string, unknown> | null }[] | null
}

/**
 * Spec 3, rule 1: an order must not be fulfilled while its REFPAY payment is WAITING; fulfil only once APPROVED
 * (captured in Medusa). Orders paid with other providers are not our business.
 */
export function assertRefpayOrderFulfillable(collections: GuardedCollection[]): void {
  const collection = unpaidRefpayCollection(collections)
  if (collection) {
    const session = collection.payment_sessions!.find((s) => isRefpayProviderId(s.provider_id))!
    const reference = (session.data?.refpay as { reference?: string; entity?: string } | null | undefined) ?? null
    const detail = reference?.reference ? ` (entity ${reference.entity}, reference ${reference.reference})` : ""
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `This order cannot be fulfilled yet: its REFPAY payment${detail} has not been received (payment status: ${collection.status}). ` +
        "Do not ship until the payment is confirmed; the order updates by itself when the customer pays."
    )
  }
}

/**
 * The first collection of the order that REFPAY is to pay and that is not paid, or none. While the order has received
 * nothing, that is any unpaid collection with a REFPAY session (the checkout's, its reference waiting, expired or
 * cancelled: an unpaid order never ships). Once some collection is paid, a difference blocks only while the shop
 * still asks REFPAY to collect it, that is while its reference can be paid or is being issued: one that ended unpaid
 * leaves the difference to the shop (collected another way, or requested again). The guard refuses to ship while
 * there is one, and the order's REFPAY view says "do not ship" for the same reason.
 */
export function unpaidRefpayCollection(collections: GuardedCollection[]): GuardedCollection | undefined {
  const paidSomething = collections.some((collection) => PAID_COLLECTION_STATUSES.has(String(collection.status)))
  return collections.find((collection) => {
    if (PAID_COLLECTION_STATUSES.has(String(collection.status))) return false
    const sessions = (collection.payment_sessions ?? []).filter((s) => isRefpayProviderId(s.provider_id))
    if (!paidSomething) return sessions.length > 0
    return sessions.some(
      (s) =>
        s.status === "pending_authorization" ||
        (s.status === "pending" && !s.data?.refpay && !!s.data?.completion_started_at)
    )
  })
}

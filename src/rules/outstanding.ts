import { isRefpayProviderId } from "./provider-ids"

/**
 * What a payment collection of a placed order is, for "Request payment by REFPAY": already paid; waiting on a
 * REFPAY reference (asking again gives that reference); open for a REFPAY reference (unpaid, something due, no live
 * reference); or nothing to pay on it (cancelled, nothing due, or held by another payment method).
 */
export type CollectionState = "paid" | "awaiting_refpay" | "requestable" | "nothing_due"

export interface CollectionFacts {
  id: string
  /** Medusa's payment collection status. */
  status: string
  /** What the collection asks for, in cents. */
  amountCents: number
  sessions: { id: string; providerId: string; status: string; hasReference: boolean }[]
}

/** Collection statuses at which the money is in (refunds afterwards are the shop's own decision). */
export const PAID_COLLECTION_STATUSES: ReadonlySet<string> = new Set(["completed", "partially_refunded", "refunded"])

/** Statuses of a collection nothing has paid or authorised yet: the only ones a REFPAY reference may be issued on. */
const UNPAID_STATUSES: ReadonlySet<string> = new Set(["not_paid", "awaiting"])

export function collectionState(collection: CollectionFacts): CollectionState {
  if (PAID_COLLECTION_STATUSES.has(collection.status)) return "paid"
  if (liveReference(collection)) return "awaiting_refpay"
  if (UNPAID_STATUSES.has(collection.status) && collection.amountCents > 0) return "requestable"
  return "nothing_due"
}

/** The REFPAY session of the collection whose reference can still be paid, if any. */
export function liveReference(collection: CollectionFacts): CollectionFacts["sessions"][number] | undefined {
  return collection.sessions.find(
    (s) => isRefpayProviderId(s.providerId) && s.hasReference && s.status === "pending_authorization"
  )
}

export type PaymentRequestPlan =
  /** The collection already waits on a REFPAY reference: answer it (asking twice gives the same reference). */
  | { kind: "existing"; collectionId: string; sessionId: string }
  /** Issue a reference on this collection. */
  | { kind: "issue"; collectionId: string; amountCents: number }
  /** The order owes money but has no collection for it (an order created in the admin): open one, then issue. */
  | { kind: "open_collection"; amountCents: number }
  | { kind: "refuse"; reason: "not_found" | "nothing_due" }

/**
 * Which collection a payment request pays: the one asked for (it must be the order's), or else the one already
 * waiting on a REFPAY reference, then the first open one, then a new collection for what the order still owes.
 */
export function planPaymentRequest(
  collections: CollectionFacts[],
  outstandingCents: number,
  requestedId?: string
): PaymentRequestPlan {
  const candidates = requestedId ? collections.filter((c) => c.id === requestedId) : collections
  if (requestedId && candidates.length === 0) return { kind: "refuse", reason: "not_found" }
  for (const collection of candidates) {
    const live = liveReference(collection)
    if (live && collectionState(collection) === "awaiting_refpay")
      return { kind: "existing", collectionId: collection.id, sessionId: live.id }
  }
  const open = candidates.find((c) => collectionState(c) === "requestable")
  if (open) return { kind: "issue", collectionId: open.id, amountCents: open.amountCents }
  // Only when no collection is still in play (another method's authorisation, say): never a second one beside it.
  if (!requestedId && outstandingCents > 0 && collections.every(isClosed))
    return { kind: "open_collection", amountCents: outstandingCents }
  return { kind: "refuse", reason: "nothing_due" }
}

function isClosed(collection: CollectionFacts): boolean {
  return PAID_COLLECTION_STATUSES.has(collection.status) || collection.status === "canceled"
}

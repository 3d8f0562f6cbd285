import { isRefpayProviderId } from "./provider-ids"

/**
 * What a payment collection of a placed order is, for "Request payment by REFPAY": already paid; waiting on a
 * REFPAY reference (asking again gives that reference); open for a REFPAY reference (unpaid, something due, no live
 * reference); or nothing to pay on it (cancelled, nothing due, or held by another payment method).
 */
export type CollectionState = "paid" | "awaiting_refpay" | "requestable" | "nothing_due"

export interface CollectionAmounts {
  id: string
  /** Medusa's payment collection status. */
  status: string
  /** What the collection asks for, in cents. */
  amountCents: number
  sessions: {
    id: string
    providerId: string
    status: string
    hasReference: boolean
    /**
     * The plugin started issuing its reference (the cart completion, or an issuing path on a placed order's collection,
     * marked it: `completion_started_at`); a session a storefront created on its own is not a reference coming.
     */
    issuing?: boolean
  }[]
}

/** Collection statuses at which the money is in (refunds afterwards are the shop's own decision). */
export const PAID_COLLECTION_STATUSES: ReadonlySet<string> = new Set(["completed", "partially_refunded", "refunded"])

/** Statuses of a collection nothing has paid or authorised yet: the only ones a REFPAY reference may be issued on. */
const UNPAID_STATUSES: ReadonlySet<string> = new Set(["not_paid", "awaiting"])

export function collectionState(collection: CollectionAmounts): CollectionState {
  if (PAID_COLLECTION_STATUSES.has(collection.status)) return "paid"
  if (liveReference(collection)) return "awaiting_refpay"
  if (UNPAID_STATUSES.has(collection.status) && collection.amountCents > 0) return "requestable"
  return "nothing_due"
}

/**
 * The REFPAY session that holds the collection, if any: its reference can still be paid, or it is being issued (a
 * session created for a reference whose platform call is under way, or was cut short and is resumed by the next
 * issue). Either way no second reference may be issued beside it: one payable reference per collection.
 */
export function liveReference(collection: CollectionAmounts): CollectionAmounts["sessions"][number] | undefined {
  return collection.sessions.find((s) => referenceHold(s) !== null)
}

type SessionInput = CollectionAmounts["sessions"][number]

/** What a REFPAY session is to the issuing of a new reference on its collection. */
function referenceHold(session: SessionInput): "payable" | "paid" | "coming" | null {
  if (!isRefpayProviderId(session.providerId)) return null
  if (!session.hasReference) return session.status === "pending" && session.issuing ? "coming" : null
  if (session.status === "pending_authorization") return "payable"
  return session.status === "authorized" || session.status === "captured" ? "paid" : null
}

/** What a new reference on a collection does, decided under the collection's lock by whatever path issues it. */
export type ReferenceClaim =
  /** The collection already has a payable or paid REFPAY reference: that session stands, nothing is issued. */
  | { kind: "taken"; sessionId: string }
  /** A session whose reference was being issued (cut short): issued for it, the platform replays its reference. */
  | { kind: "resume"; sessionId: string }
  /** Nothing holds the collection: a new session and reference. */
  | { kind: "create" }

export function claimCollection(sessions: CollectionAmounts["sessions"]): ReferenceClaim {
  const held = sessions.find((s) => {
    const hold = referenceHold(s)
    return hold === "payable" || hold === "paid"
  })
  if (held) return { kind: "taken", sessionId: held.id }
  const coming = sessions.find((s) => referenceHold(s) === "coming")
  return coming ? { kind: "resume", sessionId: coming.id } : { kind: "create" }
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
  collections: CollectionAmounts[],
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

function isClosed(collection: CollectionAmounts): boolean {
  return PAID_COLLECTION_STATUSES.has(collection.status) || collection.status === "canceled"
}

/** Which outstanding amounts a customer may ask a REFPAY reference for from the store (REFPAY_STORE_PAYMENT_REQUESTS). */
export const STORE_PAYMENT_REQUESTS = ["refpay_orders", "any", "none"] as const
export type StorePaymentRequests = (typeof STORE_PAYMENT_REQUESTS)[number]

/** What the shop's settings and the order say about a customer's request for a new reference on a collection. */
export interface StoreRequestInput {
  setting: StorePaymentRequests
  /** A REFPAY reference was issued on one of the order's collections (at checkout, or at the shop's request). */
  orderHasRefpayReference: boolean
  /** REFPAY references of this collection that ended unpaid (expired or cancelled): another one is a renewal. */
  endedReferences: number
  expiryPolicy: "renew" | "cancel"
  maxRenewals: number
}

export type StoreRequestRefusal = "store_requests_off" | "not_a_refpay_order" | "renewal_is_the_shops"

/**
 * Why a customer may not have a new reference issued from the store, or null when they may. The shop decides which
 * amounts REFPAY collects (a difference it means to take another way must not get a reference the fulfilment guard
 * then waits on), and a collection whose references ended unpaid gets another only as the expiry policy would renew
 * it (`renew`, within `REFPAY_MAX_RENEWALS`, counted as `expiryOutcome` counts them); otherwise the admin decides.
 */
export function storeRequestRefusal(input: StoreRequestInput): StoreRequestRefusal | null {
  if (input.setting === "none") return "store_requests_off"
  if (input.setting === "refpay_orders" && !input.orderHasRefpayReference) return "not_a_refpay_order"
  const renewable = input.expiryPolicy === "renew" && input.endedReferences <= input.maxRenewals
  if (input.endedReferences > 0 && !renewable) return "renewal_is_the_shops"
  return null
}

/** What the customer is told when the store may not issue the reference: the shop is the one to ask. */
export const STORE_REQUEST_REFUSALS = {
  store_requests_off: {
    pt: "A loja não emite referências REFPAY a pedido. Contacte a loja para pagar este montante.",
    en: "This shop does not issue REFPAY references on request. Please contact the shop to pay this amount.",
  },
  not_a_refpay_order: {
    pt: "Esta encomenda não é paga por referência REFPAY. Contacte a loja para pagar este montante.",
    en: "This order is not paid by REFPAY reference. Please contact the shop to pay this amount.",
  },
  renewal_is_the_shops: {
    pt: "A referência desta encomenda expirou e a loja não emite outra automaticamente. Contacte a loja.",
    en: "This order's reference expired and the shop does not issue another automatically. Please contact the shop.",
  },
} as const satisfies Record<StoreRequestRefusal, { pt: string; en: string }>

/** REFPAY references of a collection that ended unpaid. */
export function endedReferences(collection: CollectionAmounts): number {
  return collection.sessions.filter(
    (s) => isRefpayProviderId(s.providerId) && s.hasReference && s.status === "canceled"
  ).length
}

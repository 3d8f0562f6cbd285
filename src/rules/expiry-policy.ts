/** What the platform did when the plugin asked it to cancel a reference. */
export type PlatformCancelResult = "nothing" | "cancelled" | "refunded" | "refused_paid"

/** What becomes of an order whose reference expired unpaid. */
export type ExpiryOutcome =
  /** A new reference for the same amount on the same order, e-mailed to the customer. */
  | "renew"
  /** The order is cancelled and the customer told so. */
  | "cancel_order"
  /** The order is left as it is (the shop cancels nothing automatically, or the customer paid in time). */
  | "keep_order"

export interface ExpiryInput {
  policy: "renew" | "cancel"
  maxRenewals: number
  /** References of this order that expired so far, this one included. */
  expiredSoFar: number
  cancelExpiredOrders: boolean
  orderOpen: boolean
  /** Another payment collection of the order holds money: the expired reference was for a difference only. */
  orderPaidElsewhere?: boolean
  platformDid: PlatformCancelResult
}

/**
 * Spec 3 rule 2: after D+7 "the merchant asks the customer for a new payment". Under `renew` an order gets up to
 * `maxRenewals` new references, then it is cancelled like under `cancel`. A reference the customer paid at the last
 * moment (the platform refused the cancellation) keeps its order; one whose payment the platform refunded as it was
 * being cancelled is treated as unpaid.
 */
export function expiryOutcome(input: ExpiryInput): ExpiryOutcome {
  if (input.platformDid === "refused_paid" || !input.orderOpen) return "keep_order"
  if (input.policy === "renew" && input.platformDid === "cancelled" && input.expiredSoFar <= input.maxRenewals)
    return "renew"
  // A difference left unpaid never cancels an order the customer has paid for: the shop decides what to do.
  return input.cancelExpiredOrders && !input.orderPaidElsewhere ? "cancel_order" : "keep_order"
}

/** What the admin's "Issue a new reference" needs to know of an order's REFPAY sessions. */
export interface RenewalCandidate {
  orderStatus: string
  sessions: { status: string; captured: boolean }[]
}

/**
 * Why an order cannot get a new reference from the admin, or null when it can: only an open order whose every
 * reference expired or was cancelled unpaid (a payable or paid one must never be doubled).
 */
export function renewalRefusal(candidate: RenewalCandidate): string | null {
  if (candidate.orderStatus === "canceled") return "the order is cancelled"
  if (candidate.sessions.some((s) => s.captured)) return "the order is already paid"
  if (candidate.sessions.some((s) => s.status !== "canceled")) return "its current reference can still be paid"
  return null
}

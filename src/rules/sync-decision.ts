import type { InterpretedStatus, PaymentOutcome } from "./status"

/** What Medusa currently knows of a REFPAY payment session. */
export interface MedusaSide {
  sessionStatus: string
  /** A Payment exists for the session and is captured. */
  captured: boolean
  orderId: string | null
  orderCanceled: boolean
  /** Cents the session's reference is for. */
  amountCents: number
  /**
   * Cents the session's payment collection asks for now: Medusa changes it when the shop edits an unpaid order (an
   * order edit, a claim, an exchange, a return), and the reference must follow it.
   */
  collectionAmountCents?: number
  /** Cents Medusa has recorded as refunded on the session's payment. */
  refundedCents?: number
  expiresAt: Date
  latePaymentRecorded: boolean
  /** Another reference of the same order (an earlier or renewed one) was paid: this one must not stay payable. */
  superseded?: boolean
  /**
   * Another payment collection of the order holds money (this reference is for a difference requested after the
   * order was paid): a reference that will never be paid then never cancels the order.
   */
  orderPaidElsewhere?: boolean
}

export interface PlatformSide {
  status: InterpretedStatus
  /** Cents the platform reports, when it does. */
  amountCents?: number
  /** Cents the platform has refunded (a refund, or a cancellation that met a payment). */
  refundedCents?: number
  /** The platform cancelled the reference because it expired (EXPIRED, reason EXPIRED, or past its validity). */
  expired?: boolean
}

export type SyncDecision =
  | { kind: "none"; why: string }
  /** Paid: Medusa's payment workflow records the payment and its capture (and any refund the platform made). */
  | { kind: "capture" }
  /** Paid after the order was cancelled, money still held: record it, flag it, tell the shop owner. */
  | { kind: "capture_late" }
  /** Paid after the order was cancelled and already refunded by the platform (a cancel that met the payment). */
  | { kind: "capture_refunded"; refundCents: number }
  /** Captured, and the platform refunded more than Medusa recorded: record the difference as a refund. */
  | { kind: "record_refund"; refundCents: number }
  /** Already captured on a cancelled order, money still held, but not yet flagged. */
  | { kind: "flag_late" }
  /** The platform will not be paid (cancelled, expired, declined, failed) while the order is open. */
  | { kind: "cancel_order" }
  /** Order already cancelled in Medusa: bring the session in line. */
  | { kind: "mark_canceled" }
  /** Order cancelled in Medusa but the reference is still payable: cancel it on the platform (again). */
  | { kind: "cancel_reference" }
  /** Unpaid past validity plus grace: cancel the reference, then the order when configured. */
  | { kind: "expire" }
  /** Still waiting: remember the check. */
  | { kind: "record_check" }
  /**
   * Still waiting, but the order's amount changed (the shop edited the unpaid order): cancel this reference and,
   * once the platform has cancelled it, issue one for `amountCents` on the same order (none when nothing is due).
   */
  | { kind: "reissue"; amountCents: number }
  /** Paid, but not the amount of the order (or no amount at all): never captured automatically. */
  | { kind: "amount_mismatch" }

export function medusaOutcome(side: MedusaSide): PaymentOutcome {
  if (side.captured) return "paid"
  if (side.orderCanceled || side.sessionStatus === "canceled" || side.superseded) return "cancelled"
  return "awaiting"
}

/** Refunds the platform made that Medusa has not recorded yet (never negative). */
export function unrecordedRefundCents(
  medusa: Pick<MedusaSide, "refundedCents">,
  platform: Pick<PlatformSide, "refundedCents">
): number {
  return Math.max(0, (platform.refundedCents ?? 0) - (medusa.refundedCents ?? 0))
}

/** Whether the platform's paid amount is exactly the session's: the only case a payment may count as paid. */
export function amountMatches(
  medusa: Pick<MedusaSide, "amountCents">,
  platform: Pick<PlatformSide, "amountCents">
): boolean {
  return platform.amountCents === medusa.amountCents
}

/** Whether the order's payment collection now asks for another amount than the session's reference. */
export function amountChanged(medusa: Pick<MedusaSide, "amountCents" | "collectionAmountCents">): boolean {
  return medusa.collectionAmountCents !== undefined && medusa.collectionAmountCents !== medusa.amountCents
}

/**
 * One table of what to do, given Medusa's state and the platform's. Payments only move forward: nothing undoes a
 * capture, a payment that arrives after cancellation is recorded, never dropped, and what the platform did (a
 * refund included) is what Medusa records.
 */
export function decideSync(medusa: MedusaSide, platform: PlatformSide, now: Date, graceMs: number): SyncDecision {
  const current = medusaOutcome(medusa)
  const next = platform.status.outcome

  if (next === "paid") {
    if (!amountMatches(medusa, platform))
      return current === "paid" ? { kind: "none", why: "captured; amounts differ" } : { kind: "amount_mismatch" }
    const refundCents = unrecordedRefundCents(medusa, platform)
    const held = medusa.amountCents - (platform.refundedCents ?? 0)
    const cancelled = medusaOutcome(medusa) === "cancelled"
    if (current !== "paid") {
      if (!cancelled) return { kind: "capture" }
      return held > 0 ? { kind: "capture_late" } : { kind: "capture_refunded", refundCents }
    }
    if (refundCents > 0) return { kind: "record_refund", refundCents }
    if (medusa.orderCanceled && held > 0 && !medusa.latePaymentRecorded) return { kind: "flag_late" }
    return { kind: "none", why: "already captured" }
  }

  if (current === "paid")
    return { kind: "none", why: `captured payment is never undone by a later ${platform.status.raw}` }

  if (next === "cancelled" || next === "failed") {
    // An expiry the platform applied itself goes through the shop's expiry policy (renew or cancel), like ours.
    if (current === "awaiting" && next === "cancelled" && platform.expired && medusa.orderId) return { kind: "expire" }
    if (current === "awaiting")
      return medusa.orderId && !medusa.orderPaidElsewhere ? { kind: "cancel_order" } : { kind: "mark_canceled" }
    return medusa.sessionStatus === "canceled" ? { kind: "none", why: "already cancelled" } : { kind: "mark_canceled" }
  }

  // The platform says the customer has yet to pay.
  if (current === "cancelled") return { kind: "cancel_reference" }
  if (platform.status.known && now.getTime() > medusa.expiresAt.getTime() + graceMs) return { kind: "expire" }
  if (platform.status.known && medusa.orderId && amountChanged(medusa))
    return { kind: "reissue", amountCents: medusa.collectionAmountCents! }
  return { kind: "record_check" }
}

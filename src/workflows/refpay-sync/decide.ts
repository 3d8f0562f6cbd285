import type { InterpretedStatus, PaymentOutcome } from "../../providers/refpay/status"

/** What Medusa currently knows of a REFPAY payment session. */
export interface MedusaSide {
  sessionStatus: string
  /** A Payment exists for the session and is captured. */
  captured: boolean
  orderId: string | null
  orderCanceled: boolean
  /** Cents the session (and so the order) is for. */
  amountCents: number
  expiresAt: Date
  latePaymentRecorded: boolean
}

export interface PlatformSide {
  status: InterpretedStatus
  /** Cents the platform reports, when it does. */
  amountCents?: number
}

export type SyncDecision =
  | { kind: "none"; why: string }
  /** Paid: Medusa's payment workflow records the payment and its capture. */
  | { kind: "capture" }
  /** Paid after the order was cancelled: record it, flag it, tell the shop owner (and refund when configured). */
  | { kind: "capture_late" }
  /** Already captured on a cancelled order but not yet flagged. */
  | { kind: "flag_late" }
  /** The platform will not be paid (cancelled, expired, declined, failed) while the order is open. */
  | { kind: "cancel_order" }
  /** Order already cancelled in Medusa: bring the session in line. */
  | { kind: "mark_cancelled" }
  /** Order cancelled in Medusa but the reference is still payable: cancel it on the platform (again). */
  | { kind: "cancel_reference" }
  /** Unpaid past validity plus grace: cancel the reference, then the order when configured. */
  | { kind: "expire" }
  /** Still waiting: remember the check. */
  | { kind: "record_check" }
  /** Paid, but not the amount of the order: never captured automatically. */
  | { kind: "amount_mismatch" }

export function medusaOutcome(side: MedusaSide): PaymentOutcome {
  if (side.captured) return "paid"
  if (side.orderCanceled || side.sessionStatus === "canceled") return "cancelled"
  return "awaiting"
}

/**
 * One table of what to do, given Medusa's state and the platform's. Payments only move forward: nothing undoes a
 * capture, and a payment that arrives after cancellation is recorded, never dropped.
 */
export function decideSync(medusa: MedusaSide, platform: PlatformSide, now: Date, graceMs: number): SyncDecision {
  const current = medusaOutcome(medusa)
  const next = platform.status.outcome

  if (next === "paid") {
    if (platform.amountCents !== undefined && platform.amountCents !== medusa.amountCents) return { kind: "amount_mismatch" }
    if (current === "paid") {
      return medusa.orderCanceled && !medusa.latePaymentRecorded ? { kind: "flag_late" } : { kind: "none", why: "already captured" }
    }
    return current === "cancelled" ? { kind: "capture_late" } : { kind: "capture" }
  }

  if (current === "paid") return { kind: "none", why: `captured payment is never undone by a later ${platform.status.raw}` }

  if (next === "cancelled" || next === "failed") {
    if (current === "awaiting") return medusa.orderId ? { kind: "cancel_order" } : { kind: "mark_cancelled" }
    return medusa.sessionStatus === "canceled" ? { kind: "none", why: "already cancelled" } : { kind: "mark_cancelled" }
  }

  // The platform says the customer has yet to pay.
  if (current === "cancelled") return { kind: "cancel_reference" }
  if (platform.status.known && now.getTime() > medusa.expiresAt.getTime() + graceMs) return { kind: "expire" }
  return { kind: "record_check" }
}

import { interpretStatus } from "./status"

/**
 * A reference whose payment session Medusa deleted (its store route, a storefront's "pay again" step) while the
 * reference could still be settled late: Medusa can no longer record its payment (a capture needs the session), so
 * the plugin keeps its own record (the reference's payment check) and acts from it. What the platform reports and
 * what the plugin did already decide what it does now.
 */
export interface DeletedSessionInput {
  platformStatus: string
  /** What the platform says was paid and refunded, in cents. */
  paidCents: number
  refundedCents: number
  /** The plugin flagged this payment already (the check's `late_at`). */
  flagged: boolean
  /** REFPAY_AUTO_REFUND_LATE_PAYMENTS, or the shop owner's "Refund" from the REFPAY page. */
  refund: "auto" | "owner" | "off"
}

export interface DeletedSessionPlan {
  /** Record the payment and tell the shop (event, warning, the REFPAY page's list): once per payment. */
  flag: boolean
  /** Cents to send back through the platform: all it still holds of the payment, or 0. */
  refundCents: number
  /** The check's outcome, the REFPAY page's list reads it. */
  outcome: "paid_after_session_deleted" | "refunded_after_session_deleted" | "record_check"
}

export function planDeletedSession(input: DeletedSessionInput): DeletedSessionPlan {
  if (interpretStatus(input.platformStatus).outcome !== "paid")
    return { flag: false, refundCents: 0, outcome: "record_check" }
  const held = Math.max(0, input.paidCents - input.refundedCents)
  const refundCents = input.refund === "off" ? 0 : held
  return {
    flag: !input.flagged,
    refundCents,
    outcome: held - refundCents > 0 ? "paid_after_session_deleted" : "refunded_after_session_deleted",
  }
}

import type { RefpayPaymentRecord } from "../lib/refpay"

/** A refund the platform holds, from its status read's history. */
export interface PlatformRefund {
  key: string
  cents: number
}

/** What the platform says of a payment, for a refund decision. */
export interface PlatformRefundState {
  /** Cents paid; unknown when the platform did not say. */
  amountCents?: number
  /** Cents already refunded; unknown when the platform did not say. */
  refundedCents?: number
  /** The refunds it holds under an idempotency key. */
  refunds: PlatformRefund[]
}

export interface RefundRequest {
  cents: number
  /** The platform idempotency key of this Medusa refund (`refundKeyFor`). */
  key: string
  /** A refund the platform made outside a Medusa refund call that this Medusa refund is recording, if any. */
  recording?: PlatformRefund
  /** Platform keys of the refunds Medusa has already recorded on this payment. */
  recordedKeys: readonly string[]
}

export type RefundDecision =
  /** The platform holds this very refund (an earlier try whose answer was lost): success, nothing sent. */
  | { kind: "already_made"; key: string }
  /** This Medusa refund records a refund the platform made by itself: success, nothing sent. */
  | { kind: "record"; key: string }
  /** Send the refund to the platform under its key. */
  | { kind: "make" }
  /** Refused before the platform is called. */
  | { kind: "refuse"; why: string }

/**
 * Whether a Medusa refund is already made, is the record of one the platform made, must be made, or cannot be.
 * "Already made" is decided only from the platform's own refund records matched by idempotency key, never from
 * totals: two refunds of the same amount are two refunds. More than the platform can still refund is refused
 * before it is called (Medusa tolerates a cent over what it captured; the platform's books are the limit).
 */
export function decideRefund(request: RefundRequest, platform: PlatformRefundState): RefundDecision {
  if (platform.refunds.some((r) => r.key === request.key)) return { kind: "already_made", key: request.key }
  const recording = request.recording
  if (recording) {
    const held = platform.refunds.find((r) => r.key === recording.key)
    if (!held || held.cents !== request.cents || request.recordedKeys.includes(recording.key)) {
      return {
        kind: "refuse",
        why: `the platform holds no unrecorded refund of ${request.cents} cents under ${recording.key}`,
      }
    }
    return { kind: "record", key: recording.key }
  }
  if (platform.amountCents === undefined) return { kind: "make" }
  const refundable = platform.amountCents - (platform.refundedCents ?? 0)
  if (request.cents > refundable) {
    return {
      kind: "refuse",
      why:
        `REFPAY can refund at most ${Math.max(0, refundable)} cents of this payment (${platform.refundedCents ?? 0} of ` +
        `${platform.amountCents} cents already refunded on the platform); ${request.cents} cents were asked`,
    }
  }
  return { kind: "make" }
}

/** The refunds of a status read's history that carry an idempotency key and an amount. */
export function platformRefunds(records: readonly RefpayPaymentRecord[]): PlatformRefund[] {
  return records
    .filter((r) => r.type?.toUpperCase() === "REFUND" && r.idempotencyKey && r.amountCents !== undefined)
    .map((r) => ({ key: r.idempotencyKey as string, cents: r.amountCents as number }))
}

/**
 * The platform's refunds Medusa has not recorded: those whose key is neither a recorded one nor the key a Medusa
 * refund of this payment was sent under.
 */
export function unrecordedPlatformRefunds(
  platform: readonly PlatformRefund[],
  recordedKeys: readonly string[]
): PlatformRefund[] {
  const known = new Set(recordedKeys)
  return platform.filter((r) => !known.has(r.key))
}

import type { RefpayPaymentRecord } from "../lib/refpay"
import { refundKeyFor } from "./identifiers"

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
  /** Refunds the platform made outside a Medusa refund call that this Medusa refund is recording, if any. */
  recording?: readonly PlatformRefund[]
  /** Platform keys of the refunds Medusa has already recorded on this payment. */
  recordedKeys: readonly string[]
}

export type RefundDecision =
  /** The platform holds this very refund (an earlier try whose answer was lost): success, nothing sent. */
  | { kind: "already_made"; key: string }
  /** This Medusa refund records refunds the platform made by itself: success, nothing sent. */
  | { kind: "record"; keys: string[] }
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
  if (recording?.length) {
    const keys = recording.map((r) => r.key)
    const held = recording.every(
      (r) =>
        platform.refunds.some((p) => p.key === r.key && p.cents === r.cents) && !request.recordedKeys.includes(r.key)
    )
    if (!held || recording.reduce((total, r) => total + r.cents, 0) !== request.cents) {
      return {
        kind: "refuse",
        why: `the platform holds no unrecorded refunds of ${request.cents} cents under ${keys.join(", ")}`,
      }
    }
    return { kind: "record", keys }
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

/** A refund Medusa holds on a REFPAY payment (JSON-safe: it travels between a workflow's steps). */
export interface MedusaRefundRecord {
  id: string
  cents: number
  /** ISO 8601. */
  createdAt: string
}

/** Medusa's side of a REFPAY payment's refunds, for interruptedRefunds. */
export interface MedusaRefunds {
  refpayPaymentId: string
  refunds: readonly MedusaRefundRecord[]
  /** Medusa's refunds that record a refund the platform made by itself (sent nothing; their key is not on it). */
  recordingIds: readonly string[]
  /** Platform keys of the refunds Medusa has (refundKeyFor of each, and the recorded platform keys). */
  keys: readonly string[]
  /**
   * The platform keys the provider recorded in the payment's data (`refund_keys`): those of the platform refunds
   * Medusa recorded, and the key of each Medusa refund whose call the platform answered with success
   * (answeredRefundKeys).
   */
  recordedKeys: readonly string[]
}

/**
 * How long a Medusa refund may wait for its platform call before a sync may take it for one cut short: longer than
 * the provider's refund can last (a status read, the refund call, a read after a lost answer, each with the client's
 * timeouts and retries: under five minutes with the defaults), so a refund still on its way is never taken for one.
 */
export const INTERRUPTED_REFUND_AFTER_MS = 15 * 60_000

/**
 * The recorded refund keys once the platform has answered a refund under `key` with success (or was found holding
 * it): the provider records them in the payment's data, so a later status read that does not list the refund (an
 * asynchronous refund, a lagging read) never makes it look cut short (interruptedRefunds).
 */
export function answeredRefundKeys(recordedKeys: readonly string[] | null | undefined, key: string): string[] {
  const keys = recordedKeys ?? []
  return keys.includes(key) ? [...keys] : [...keys, key]
}

/**
 * Medusa refunds cut short by a process that died during the platform call. Medusa commits its Refund before calling
 * the provider and deletes it only when the call fails (medusa-compat/refund-before-provider.ts), so such a refund is
 * shown in Medusa and was never made; removing it is what Medusa itself does to a refund whose call failed. A refund is taken for one
 * only when both sides agree:
 * - its call has no recorded answer (the provider records the key of each refund the platform answered with success:
 *   such a refund is never taken, whatever later reads list), the platform holds no refund under its key, and it
 *   records no platform refund (the sync records those);
 * - it is older than INTERRUPTED_REFUND_AFTER_MS;
 * - Medusa's refunded total, counting the platform refunds the sync is about to record, exceeds the platform's by at
 *   least all such refunds: so a platform whose status read lists no keys never loses a refund made, and a recording
 *   cut short (its platform refund still unrecorded) is removed and recorded again, not recorded twice.
 */
export function interruptedRefunds(
  medusa: MedusaRefunds,
  platform: Pick<PlatformRefundState, "refundedCents" | "refunds">,
  now: Date
): MedusaRefundRecord[] {
  if (platform.refundedCents === undefined) return []
  // Made: the platform holds it, or answered its call with success (the provider recorded its key).
  const made = new Set([...platform.refunds.map((r) => r.key), ...medusa.recordedKeys])
  const recordings = new Set(medusa.recordingIds)
  const unmade = medusa.refunds.filter(
    (r) => !recordings.has(r.id) && !made.has(refundKeyFor(medusa.refpayPaymentId, r.id))
  )
  const toRecord = unrecordedPlatformRefunds(platform.refunds, medusa.keys)
  const surplus = centsOf(medusa.refunds) + centsOf(toRecord) - platform.refundedCents
  if (unmade.length === 0 || centsOf(unmade) > surplus) return []
  return unmade.filter((r) => Date.parse(r.createdAt) <= now.getTime() - INTERRUPTED_REFUND_AFTER_MS)
}

function centsOf(refunds: readonly { cents: number }[]): number {
  return refunds.reduce((total, r) => total + r.cents, 0)
}

import { v5 as uuidv5 } from "uuid"

/**
 * Identifiers sent to the platform, all derived from the Medusa payment session id, never random: a retried cart
 * completion, a second server or a restarted process computes the same payment_id and idempotency_key, so the
 * platform replays the first creation instead of issuing a second reference.
 *
 * `generation` counts the references a session has had: it moves on only when a reference is deliberately replaced
 * (the amount changed), so the replacement gets new identifiers and a new order_id.
 */

/** Fixed namespace of this plugin for name-based (version 5) UUIDs. Changing it would orphan live payments. */
const NAMESPACE = "5d0c2a52-93a7-4b8e-9a43-1f0c6f7e2b11"

/** RFC 9562 (formerly 4122) version 5 UUID: SHA-1 of namespace + name, so equal names give equal UUIDs in every process. */
export function uuidFromName(name: string): string {
  return uuidv5(name, NAMESPACE)
}

export const MAX_ORDER_ID_LENGTH = 35
const SESSION_PREFIX = "payses_"
const COMPACT_PREFIX = "ps_"

export class IdentifierTooLongError extends Error {
  override name = "IdentifierTooLongError"
}

/**
 * The platform's order_id (unique, at most 35 characters, spec 2.5) for a session's nth reference. Medusa session
 * ids are `payses_` + a 26-character ULID (33 characters); we write `ps_<ulid>` and add `-<n>` for replacements, so
 * the order_id reads back to the session id (see `sessionIdFromOrderId`) and stays within the limit.
 */
export function orderIdFor(sessionId: string, generation: number): string {
  const base = sessionId.startsWith(SESSION_PREFIX)
    ? COMPACT_PREFIX + sessionId.slice(SESSION_PREFIX.length)
    : sessionId
  const orderId = generation > 0 ? `${base}-${generation}` : base
  if (orderId.length > MAX_ORDER_ID_LENGTH) {
    throw new IdentifierTooLongError(
      `REFPAY order_id "${orderId}" for payment session ${sessionId} is ${orderId.length} characters; the platform accepts at most ${MAX_ORDER_ID_LENGTH}`
    )
  }
  return orderId
}

/** The Medusa payment session id an order_id was made from, or null for an order_id that is not ours. */
export function sessionIdFromOrderId(orderId: string): string | null {
  const base = orderId.replace(/-[0-9]+$/, "")
  if (base.startsWith(COMPACT_PREFIX)) return SESSION_PREFIX + base.slice(COMPACT_PREFIX.length)
  return base.length > 0 ? base : null
}

export function paymentIdFor(sessionId: string, generation: number): string {
  return uuidFromName(`${sessionId}:payment:${generation}`)
}

export function creationKeyFor(sessionId: string, generation: number): string {
  return uuidFromName(`${sessionId}:create:${generation}`)
}

/** One cancellation per platform payment: a repeated cancel replays instead of failing. */
export function cancellationKeyFor(paymentId: string): string {
  return uuidFromName(`${paymentId}:cancel`)
}

/** One key per Medusa refund (its id arrives as the idempotency key), so a retried refund is not paid out twice. */
export function refundKeyFor(paymentId: string, medusaRefundKey: string): string {
  return uuidFromName(`${paymentId}:refund:${medusaRefundKey}`)
}

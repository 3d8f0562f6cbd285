import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { z } from "@medusajs/framework/zod"
import { sessionIdFromOrderId } from "./identifiers"

/**
 * A REFPAY webhook event (docs/platform-contract.md; the spec does not show the payload). An event is only a trigger:
 * the sync reads the payment's status from the platform before anything changes. So only what finds the payment is
 * required (a payment id, and an event type); every other field is taken as it comes, kept when it has the type we
 * expect and dropped otherwise. A field we never act on must never make an authentic delivery fail: the platform
 * would retry it until it gave up, and webhooks would stop without anyone noticing.
 */
const eventSchema = z.looseObject({
  event_type: z.string().trim().min(1),
  // The platform's payment ids are UUIDs (we choose them, see paymentIdFor): longer is not one of ours.
  payment_id: z.string().trim().min(1).max(100),
  event_id: z.union([z.string(), z.number()]).optional().catch(undefined),
  // Reads back to our session id (sessionIdFromOrderId); unusable, the session is found from the platform's record.
  order_id: z.string().trim().min(1).max(100).optional().catch(undefined),
  status: z.string().max(100).optional().catch(undefined),
  // Cents. A decimal (24.98) or a negative value is not a cent amount we know how to read: dropped, never guessed at.
  amount: z
    .union([
      z.number().int().nonnegative(),
      z
        .string()
        .regex(/^[0-9]{1,15}$/)
        .transform(Number),
    ])
    .optional()
    .catch(undefined),
  occurred_at: z.string().max(100).optional().catch(undefined),
})

/** The longest event_id used as is for the record's key; a longer one is keyed by its hash. */
const MAX_EVENT_KEY_LENGTH = 200

export interface RefpayWebhookEvent {
  /** The platform's event_id, as text; hashed (`event_id:sha256:<hex>`) when longer than 200 characters. */
  event_id?: string
  event_type: string
  payment_id: string
  order_id?: string
  status?: string
  amount?: number
  occurred_at?: string
  /** The Medusa payment session the event's order_id was made from. */
  session_id: string | null
}

/**
 * Why an authenticated delivery is not a usable REFPAY event: its body is not JSON, not a JSON object, or it lacks
 * what finds the payment (a payment id, an event type). Such a delivery can never succeed, however often it is sent.
 */
export type MalformedWebhookReason = "not_json" | "not_an_object" | "no_event_type" | "no_payment_id"

/** Which webhook route a delivery came through: "medusa", POST /hooks/payment/refpay_<id>; "refpay", POST /hooks/refpay[/<id>]. */
export type WebhookRoute = "medusa" | "refpay"

/**
 * Why a delivery was refused for its secret: missing_secret (no secret header nor Basic credentials), wrong_secret
 * (a secret that is not the shop's), no_secret_configured (the shop has no REFPAY_WEBHOOK_SECRET, so every delivery
 * is refused).
 */
export type WebhookRefusalReason = "missing_secret" | "wrong_secret" | "no_secret_configured"

export type ParsedWebhook =
  { usable: true; event: RefpayWebhookEvent } | { usable: false; problem: MalformedWebhookReason }

/** Reads a webhook body (object, JSON text or Buffer): the event, or why it is not a usable REFPAY event. */
export function readWebhookEvent(body: unknown): ParsedWebhook {
  let value = body
  if (Buffer.isBuffer(value)) value = value.toString("utf8")
  if (typeof value === "string") {
    try {
      value = JSON.parse(value)
    } catch {
      return { usable: false, problem: "not_json" }
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { usable: false, problem: "not_an_object" }
  const parsed = eventSchema.safeParse(value)
  if (!parsed.success) {
    const paymentIdWrong = parsed.error.issues.some((issue) => issue.path[0] === "payment_id")
    return { usable: false, problem: paymentIdWrong ? "no_payment_id" : "no_event_type" }
  }
  const { event_type, payment_id, order_id, status, amount, occurred_at } = parsed.data
  const event: RefpayWebhookEvent = {
    event_type,
    payment_id,
    session_id: order_id ? sessionIdFromOrderId(order_id) : null,
  }
  const eventId = eventKeyOf(parsed.data.event_id)
  if (eventId !== undefined) event.event_id = eventId
  if (order_id !== undefined) event.order_id = order_id
  if (status !== undefined) event.status = status
  if (amount !== undefined) event.amount = amount
  if (occurred_at !== undefined) event.occurred_at = occurred_at
  return { usable: true, event }
}

/** The event_id as the record's key: text, and a hash of it when it is too long to keep (every redelivery the same). */
function eventKeyOf(eventId: string | number | undefined): string | undefined {
  const text = typeof eventId === "number" ? (Number.isFinite(eventId) ? String(eventId) : "") : (eventId ?? "")
  if (text === "") return undefined
  if (text.length <= MAX_EVENT_KEY_LENGTH) return text
  return `event_id:sha256:${createHash("sha256").update(text).digest("hex")}`
}

export const WEBHOOK_SECRET_HEADER = "x-refpay-webhook-secret"

/**
 * The platform authenticates webhook deliveries with a shared secret: in our header, or as the password of HTTP
 * Basic credentials (field notes). Compared in constant time. No configured secret accepts nothing.
 */
export function webhookSecretMatches(
  headers: Record<string, unknown> | undefined,
  secret: string | undefined
): boolean {
  if (!secret || !headers) return false
  const presented = [headerValue(headers, WEBHOOK_SECRET_HEADER), basicPassword(headerValue(headers, "authorization"))]
  return presented.some((candidate) => candidate !== undefined && constantTimeEqual(candidate, secret))
}

function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]
  const value = Array.isArray(entry) ? entry[0] : entry
  return typeof value === "string" ? value : undefined
}

function basicPassword(authorization: string | undefined): string | undefined {
  const match = authorization?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i)
  if (!match) return undefined
  const decoded = Buffer.from(match[1], "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  return colon >= 0 ? decoded.slice(colon + 1) : undefined
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8")
  const right = Buffer.from(b, "utf8")
  // timingSafeEqual needs equal lengths; comparing against itself keeps the time independent of where they differ.
  if (left.length !== right.length) {
    timingSafeEqual(right, right)
    return false
  }
  return timingSafeEqual(left, right)
}

/** Header names that carry the shared secret: never passed on beyond the route that checks them. */
export const SECRET_BEARING_HEADERS = [WEBHOOK_SECRET_HEADER, "authorization"] as const

/**
 * Medusa's webhook route puts every request header into the `payment.webhook_received` event, which may travel to
 * Redis. Its middleware checks the secret, removes it, and leaves this proof instead: an HMAC of the body under the
 * secret, which the subscriber recomputes. It proves the secret was presented without carrying it.
 */
export const MEDUSA_ROUTE_PROOF_HEADER = "x-refpay-webhook-verified"

export function medusaRouteProof(secret: string, body: Buffer): string {
  return createHmac("sha256", secret).update(body).digest("hex")
}

export function medusaRouteProofMatches(
  headers: Record<string, unknown> | undefined,
  secret: string | undefined,
  body: Buffer
): boolean {
  if (!secret || !headers) return false
  const presented = headerValue(headers, MEDUSA_ROUTE_PROOF_HEADER)
  return presented !== undefined && constantTimeEqual(presented, medusaRouteProof(secret, body))
}

import { createHmac, timingSafeEqual } from "node:crypto"
import { z } from "@medusajs/framework/zod"
import { sessionIdFromOrderId } from "./identifiers"

/**
 * A REFPAY webhook event (docs/platform-contract.md; the spec does not show the payload). Only what we need to find
 * the payment is required; the status it carries is a hint, never acted on without a status read.
 */
const eventSchema = z.looseObject({
  event_id: z.string().min(1).max(200).optional(),
  event_type: z.string().min(1).max(100),
  payment_id: z.string().min(1).max(100),
  order_id: z.string().min(1).max(100).optional(),
  status: z.string().max(100).optional(),
  amount: z.coerce.number().int().nonnegative().optional(),
  occurred_at: z.string().max(100).optional(),
})

export interface RefpayWebhookEvent {
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

/** Parses a webhook body (object, JSON text or Buffer); null when it is not a REFPAY event. */
export function readWebhookEvent(body: unknown): RefpayWebhookEvent | null {
  let value = body
  if (Buffer.isBuffer(value)) value = value.toString("utf8")
  if (typeof value === "string") {
    try {
      value = JSON.parse(value)
    } catch {
      return null
    }
  }
  const parsed = eventSchema.safeParse(value)
  if (!parsed.success) return null
  const event = parsed.data
  return { ...event, session_id: event.order_id ? sessionIdFromOrderId(event.order_id) : null }
}

export const WEBHOOK_SECRET_HEADER = "x-refpay-webhook-secret"

/**
 * The platform authenticates webhook deliveries with a shared secret: in our header, or as the password of HTTP
 * Basic credentials (field notes). Compared in constant time. No configured secret accepts nothing.
 */
export function webhookSecretMatches(headers: Record<string, unknown> | undefined, secret: string | undefined): boolean {
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
 * Door 1 (Medusa's route) puts every request header into the `payment.webhook_received` event, which may travel to
 * Redis. Its middleware checks the secret, removes it, and leaves this proof instead: an HMAC of the body under the
 * secret, which the subscriber recomputes. It proves the secret was presented without carrying it.
 */
export const DOOR1_PROOF_HEADER = "x-refpay-webhook-verified"

export function door1Proof(secret: string, body: Buffer): string {
  return createHmac("sha256", secret).update(body).digest("hex")
}

export function door1ProofMatches(headers: Record<string, unknown> | undefined, secret: string | undefined, body: Buffer): boolean {
  if (!secret || !headers) return false
  const presented = headerValue(headers, DOOR1_PROOF_HEADER)
  return presented !== undefined && constantTimeEqual(presented, door1Proof(secret, body))
}

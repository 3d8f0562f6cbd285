import type { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/types"

/**
 * Every status the platform family is known to report (spec section 3 and the field notes). The spec's reference
 * method uses WAITING, APPROVED and CANCELLED; public documentation of the same method says PENDING and DECLINED;
 * other methods of the platform add the rest. Each is mapped on purpose below.
 */
export const PLATFORM_STATUSES = [
  "WAITING",
  "PENDING",
  "REQUIRES_ACTION",
  "AUTHORIZED",
  "APPROVED",
  "CAPTURED",
  "CANCELLED",
  "CANCELED",
  "EXPIRED",
  "DECLINED",
  "DENIED",
  "FAILED",
  "ERROR",
] as const
export type PlatformStatus = (typeof PLATFORM_STATUSES)[number]

/** What a platform status means for the shop: the customer has yet to pay, has paid, or never will. */
export type PaymentOutcome = "awaiting" | "paid" | "cancelled" | "failed"

export interface StatusRule {
  outcome: PaymentOutcome
  /** What `authorizePayment` / `getPaymentStatus` report to Medusa. */
  session: PaymentSessionStatus
  /** What a webhook result asks of Medusa's core webhook subscriber. */
  webhookAction: PaymentActions
}

const AWAITING: StatusRule = { outcome: "awaiting", session: "pending_authorization", webhookAction: "pending_authorization" }
const PAID: StatusRule = { outcome: "paid", session: "captured", webhookAction: "captured" }
const CANCELLED: StatusRule = { outcome: "cancelled", session: "canceled", webhookAction: "canceled" }
const FAILED: StatusRule = { outcome: "failed", session: "error", webhookAction: "failed" }

const RULES = {
  WAITING: AWAITING,
  PENDING: AWAITING,
  REQUIRES_ACTION: AWAITING,
  // A reference payment has no authorisation step (spec 1.5: no pre-authorisations). AUTHORIZED is not money in
  // the bank, so it must not let an order ship: keep waiting for APPROVED.
  AUTHORIZED: AWAITING,
  APPROVED: PAID,
  CAPTURED: PAID,
  CANCELLED: CANCELLED,
  CANCELED: CANCELLED,
  EXPIRED: CANCELLED,
  DECLINED: CANCELLED,
  DENIED: CANCELLED,
  FAILED: FAILED,
  ERROR: FAILED,
} as const satisfies Record<PlatformStatus, StatusRule>

export interface InterpretedStatus extends StatusRule {
  /** The status exactly as the platform sent it. */
  raw: string
  /** False for a status this table does not know: it is treated as still awaiting payment. */
  known: boolean
}

function isPlatformStatus(value: string): value is PlatformStatus {
  return Object.prototype.hasOwnProperty.call(RULES, value)
}

/** An unknown status never moves a payment forward: it reads as "still awaiting payment". */
export function interpretStatus(raw: string): InterpretedStatus {
  const key = raw.trim().toUpperCase()
  if (isPlatformStatus(key)) return { ...RULES[key], raw, known: true }
  return { ...AWAITING, raw, known: false }
}

/**
 * Whether a payment may move from one outcome to another. Payments only move forward: nothing leaves "paid"
 * (a late PENDING or CANCELLED never undoes money received; refunds are their own records), and the one move out
 * of "cancelled"/"failed" is to "paid": a customer who paid after all must be recorded, never dropped.
 */
export function canMove(from: PaymentOutcome, to: PaymentOutcome): boolean {
  if (from === to) return false
  if (from === "awaiting") return true
  if (from === "paid") return false
  return to === "paid"
}

/** Webhook event types (spec section 6) and the status each one reports. */
export const EVENT_STATUS = {
  PENDING_TRANSACTIONS: "WAITING",
  APPROVED_TRANSACTIONS: "APPROVED",
  CANCELLED_TRANSACTIONS: "CANCELLED",
} as const satisfies Record<string, PlatformStatus>
export type WebhookEventType = keyof typeof EVENT_STATUS

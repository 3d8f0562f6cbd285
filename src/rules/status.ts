import type { PaymentSessionStatus } from "@medusajs/framework/types"

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
}

const AWAITING: StatusRule = { outcome: "awaiting", session: "pending_authorization" }
const PAID: StatusRule = { outcome: "paid", session: "captured" }
const CANCELLED: StatusRule = { outcome: "cancelled", session: "canceled" }
const FAILED: StatusRule = { outcome: "failed", session: "error" }

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

import { MedusaError } from "@medusajs/framework/utils"
import { z } from "@medusajs/framework/zod"
import type { RefpayCreatedPayment, RefpayPaymentStatus } from "../lib/refpay"

/**
 * What the provider keeps in Medusa's payment session data (and so in the payment's data). Medusa merges a
 * storefront's `data` into the session, so every key below is written by the provider itself and never taken from
 * the storefront. Entity and reference are stored exactly as the platform returned them. No credential is ever here:
 * the storefront can read this object.
 */
const referenceSchema = z.object({
  payment_id: z.string(),
  order_id: z.string(),
  entity: z.string(),
  reference: z.string(),
  /** Cents exactly as the platform wrote them, e.g. "1999". */
  amount: z.string(),
  amount_cents: z.number().int(),
  currency: z.literal("EUR"),
  /** Platform status as sent (WAITING, APPROVED, CANCELLED, ...). */
  status: z.string(),
  reason_code: z.string().optional(),
  reason_message: z.string().optional(),
  created_at: z.string(),
  expires_at: z.string(),
  refunded_cents: z.number().int().default(0),
  /** Cents the platform last reported for the payment; a payment counts as paid only when this is the order's. */
  platform_amount_cents: z.number().int().optional(),
  checked_at: z.string(),
})
export type RefpayReference = z.infer<typeof referenceSchema>

const customerSchema = z
  .object({
    email: z.string().optional(),
    name: z.string().optional(),
    phone_number: z.string().optional(),
    billing_address: z.record(z.string(), z.string()).optional(),
    shipping_address: z.record(z.string(), z.string()).optional(),
  })
  .optional()

const sessionDataSchema = z.object({
  session_id: z.string().min(1),
  amount_cents: z.number().int().positive(),
  currency_code: z.literal("eur"),
  generation: z.number().int().min(0),
  customer: customerSchema,
  refpay: referenceSchema.nullable(),
  // The plugin's bookkeeping below is written only by the plugin: `initiatePayment` sets every one of these keys
  // (null), so nothing a storefront sends in `data` survives Medusa's merge as one of them.
  /** Set when the platform reported the payment after the order was cancelled in Medusa. */
  paid_after_cancellation_at: z.string().nullish(),
  /** Set when the reference was cancelled for being unpaid past its validity. */
  expired_at: z.string().nullish(),
  /**
   * Set by the cart completion (its validate hook) before the order exists, and by the plugin when it creates a
   * session to issue a reference on a placed order's collection: only such a session is ever resumed, and only such a
   * session without its reference yet counts as a reference coming (one payable reference per collection).
   */
  completion_started_at: z.string().nullish(),
  /**
   * The platform's idempotency keys of the refunds Medusa has recorded on this payment (in the payment's data),
   * including the key of every refund whose platform call was answered with success (the proof that it was made: such
   * a refund is never removed as cut short, interruptedRefunds). A refund is "already made" when the platform holds a
   * refund under its own key, never by comparing totals.
   */
  refund_keys: z.array(z.string()).nullish(),
  /**
   * The ids of the Medusa refunds that record those platform refunds (they sent nothing, so their own key is not on
   * the platform): never taken for refunds cut short (interruptedRefunds).
   */
  recording_refund_ids: z.array(z.string()).nullish(),
})
export type RefpaySessionData = z.infer<typeof sessionDataSchema>
export type RefpayCustomerSnapshot = NonNullable<RefpaySessionData["customer"]>

/** The bookkeeping keys, each written null when a session starts (compile-time complete: a new key must be listed). */
export const NO_BOOKKEEPING = {
  paid_after_cancellation_at: null,
  expired_at: null,
  completion_started_at: null,
  refund_keys: null,
  recording_refund_ids: null,
} as const satisfies Required<
  Omit<RefpaySessionData, "session_id" | "amount_cents" | "currency_code" | "generation" | "customer" | "refpay">
>

/** Reads session or payment data written by this provider; anything else is a clear error, never a guess. */
export function readSessionData(data: Record<string, unknown> | undefined): RefpaySessionData {
  const parsed = sessionDataSchema.safeParse(data ?? {})
  if (!parsed.success) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `REFPAY: this payment session's data was not written by the REFPAY provider (${parsed.error.issues
        .map((i) => i.path.join("."))
        .join(", ")}); start a new payment session`
    )
  }
  return parsed.data
}

/** The reference as created: entity, reference and amount verbatim, expiry from the shop's validity setting. */
export function referenceFromCreation(
  created: RefpayCreatedPayment,
  orderId: string,
  expiryDays: number,
  now: Date
): RefpayReference {
  const createdAt = created.receivedAt ?? now.toISOString()
  return {
    payment_id: created.paymentId,
    order_id: created.orderId ?? orderId,
    entity: created.entity,
    reference: created.reference,
    amount: created.amount,
    amount_cents: created.amountCents,
    currency: "EUR",
    status: created.status,
    reason_code: created.reasonCode,
    reason_message: created.reasonMessage,
    created_at: createdAt,
    expires_at: addDays(createdAt, expiryDays),
    refunded_cents: 0,
    platform_amount_cents: created.amountCents,
    checked_at: now.toISOString(),
  }
}

/** The stored reference updated from a status read. Entity and reference are never overwritten once shown. */
export function referenceWithStatus(
  reference: RefpayReference,
  status: RefpayPaymentStatus,
  now: Date
): RefpayReference {
  return {
    ...reference,
    status: status.status,
    reason_code: status.reasonCode ?? reference.reason_code,
    reason_message: status.reasonMessage ?? reference.reason_message,
    expires_at: status.expiresAt ?? reference.expires_at,
    refunded_cents: status.refundedAmountCents ?? reference.refunded_cents,
    platform_amount_cents: status.amountCents,
    checked_at: now.toISOString(),
  }
}

function addDays(iso: string, days: number): string {
  const start = Date.parse(iso)
  const base = Number.isFinite(start) ? start : Date.now()
  return new Date(base + days * 24 * 60 * 60 * 1000).toISOString()
}

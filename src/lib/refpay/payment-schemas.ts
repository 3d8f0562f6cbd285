import { z } from "zod"
import { cents, centsValue, displayCode, nullableString, optionalCents, optionalString, wireCents } from "./wire-values"

/**
 * The payment APIs' answers (creation, status read, cancel/refund) and the camelCase shapes the client hands to its
 * callers. Nothing from the wire is cast: a 2xx body that fails its schema becomes a RefpayResponseError. Unknown
 * fields pass through and unknown status strings are kept for the provider to judge.
 */

/** Payment creation response (spec 2.6), as handed to callers. */
export interface RefpayCreatedPayment {
  paymentId: string
  /** WAITING on success; kept as sent, the provider maps it. */
  status: string
  /** Cents exactly as the platform wrote them, e.g. "1999". */
  amount: string
  /** The same amount as an integer, e.g. 1999. */
  amountCents: number
  /** Entity code to show the customer, exactly as returned (may start with 0). */
  entity: string
  /** Payment reference to show the customer, exactly as returned (may start with 0). */
  reference: string
  orderId?: string
  idempotencyKey?: string
  sellerId?: string
  currency?: string
  receivedAt?: string
  reasonCode?: string
  reasonMessage?: string
  acquirerTransactionId?: string
  /** The body exactly as received (parsed JSON), unknown fields included. */
  raw: Record<string, unknown>
}

/**
 * Required: what the shop needs to show and track the payment (payment_id, status, amount, entity, reference).
 * The other fields of 2.6 are read when present, so a platform that leaves one out does not turn a payment that
 * was created into an error.
 *
 * Parsed on every payment, so built to be cheap: a plain object (unknown fields are accepted, not copied: the
 * caller gets the whole body as `raw`), no per-field transforms, and one final transform that maps the fields,
 * turns null into undefined and gives the amount in both forms. In the benchmark's request loop this halved the
 * parse time of the looseObject-with-field-transforms version.
 */
export const PaymentCreationResponseSchema = z
  .object({
    payment_id: z.string().min(1),
    status: z.string().min(1),
    amount: wireCents,
    additional_data: z.object({ entity: displayCode, reference: displayCode }),
    order_id: nullableString,
    idempotency_key: nullableString,
    seller_id: nullableString,
    currency: nullableString,
    received_at: nullableString,
    reason_code: nullableString,
    reason_message: nullableString,
    acquirer_transaction_id: nullableString,
  })
  .transform((b): Omit<RefpayCreatedPayment, "raw"> => ({
    paymentId: b.payment_id,
    status: b.status,
    amount: String(b.amount),
    amountCents: Number(b.amount),
    entity: b.additional_data.entity,
    reference: b.additional_data.reference,
    orderId: b.order_id ?? undefined,
    idempotencyKey: b.idempotency_key ?? undefined,
    sellerId: b.seller_id ?? undefined,
    currency: b.currency ?? undefined,
    receivedAt: b.received_at ?? undefined,
    reasonCode: b.reason_code ?? undefined,
    reasonMessage: b.reason_message ?? undefined,
    acquirerTransactionId: b.acquirer_transaction_id ?? undefined,
  }))

/** One entry of the status read's history (choice, docs/platform-contract.md). */
export interface RefpayPaymentRecord {
  type?: string
  amount?: string
  amountCents?: number
  status?: string
  occurredAt?: string
  idempotencyKey?: string
}

/** Status read (spec 4.4, body not shown: choice), as handed to callers. */
export interface RefpayPaymentStatus {
  paymentId: string
  /** Any string the platform sends, known or not; the provider decides what it means. */
  status: string
  orderId?: string
  sellerId?: string
  amount?: string
  amountCents?: number
  refundedAmount?: string
  refundedAmountCents?: number
  currency?: string
  receivedAt?: string
  updatedAt?: string
  expiresAt?: string
  reasonCode?: string
  reasonMessage?: string
  entity?: string
  reference?: string
  paymentMethod?: string
  brand?: string
  transactionType?: string
  records: RefpayPaymentRecord[]
  /** The body exactly as received (parsed JSON). */
  raw: Record<string, unknown>
}

const PaymentRecordSchema = z
  .looseObject({
    type: optionalString,
    amount: optionalCents,
    status: optionalString,
    occurred_at: optionalString,
    idempotency_key: optionalString,
  })
  .transform((r): RefpayPaymentRecord => ({
    type: r.type,
    amount: r.amount,
    amountCents: cents(r.amount),
    status: r.status,
    occurredAt: r.occurred_at,
    idempotencyKey: r.idempotency_key,
  }))

/** Lenient: only payment_id and status are required; the rest is typed when present and passed through. */
export const PaymentStatusResponseSchema = z
  .looseObject({
    payment_id: z.string().min(1),
    status: z.string().min(1),
    order_id: optionalString,
    seller_id: optionalString,
    amount: optionalCents,
    refunded_amount: optionalCents,
    currency: optionalString,
    received_at: optionalString,
    updated_at: optionalString,
    expires_at: optionalString,
    reason_code: optionalString,
    reason_message: optionalString,
    additional_data: z
      .looseObject({
        entity: displayCode.nullish().transform((v) => v ?? undefined),
        reference: displayCode.nullish().transform((v) => v ?? undefined),
      })
      .nullish(),
    payment: z
      .looseObject({
        payment_method: optionalString,
        brand: optionalString,
        transaction_type: optionalString,
      })
      .nullish(),
    records: z
      .array(PaymentRecordSchema)
      .nullish()
      .transform((v) => v ?? []),
  })
  .transform((b): Omit<RefpayPaymentStatus, "raw"> => ({
    paymentId: b.payment_id,
    status: b.status,
    orderId: b.order_id,
    sellerId: b.seller_id,
    amount: b.amount,
    amountCents: cents(b.amount),
    refundedAmount: b.refunded_amount,
    refundedAmountCents: cents(b.refunded_amount),
    currency: b.currency,
    receivedAt: b.received_at,
    updatedAt: b.updated_at,
    expiresAt: b.expires_at,
    reasonCode: b.reason_code,
    reasonMessage: b.reason_message,
    entity: b.additional_data?.entity,
    reference: b.additional_data?.reference,
    paymentMethod: b.payment?.payment_method,
    brand: b.payment?.brand,
    transactionType: b.payment?.transaction_type,
    records: b.records,
  }))

/** Result of the shared cancel/refund call (choice, docs/platform-contract.md), as handed to callers. */
export interface RefpayCancelResult {
  paymentId: string
  /** "CANCELLATION" or "REFUND" on our platform; kept as sent. */
  operation?: string
  /** The payment's status after the operation (CANCELLED after a cancel, APPROVED after a refund). */
  status: string
  amount: string
  amountCents: number
  refundedAmount?: string
  refundedAmountCents?: number
  idempotencyKey?: string
  processedAt?: string
  reasonCode?: string
  reasonMessage?: string
  /** The body exactly as received (parsed JSON). */
  raw: Record<string, unknown>
}

export const CancelResponseSchema = z
  .looseObject({
    payment_id: z.string().min(1),
    status: z.string().min(1),
    amount: centsValue,
    operation: optionalString,
    refunded_amount: optionalCents,
    idempotency_key: optionalString,
    processed_at: optionalString,
    reason_code: optionalString,
    reason_message: optionalString,
  })
  .transform((b): Omit<RefpayCancelResult, "raw"> => ({
    paymentId: b.payment_id,
    operation: b.operation,
    status: b.status,
    amount: b.amount,
    amountCents: cents(b.amount),
    refundedAmount: b.refunded_amount,
    refundedAmountCents: cents(b.refunded_amount),
    idempotencyKey: b.idempotency_key,
    processedAt: b.processed_at,
    reasonCode: b.reason_code,
    reasonMessage: b.reason_message,
  }))

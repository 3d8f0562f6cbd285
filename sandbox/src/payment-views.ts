import type { Payment, PaymentRecord } from "./payment-store"

const iso = (ms: number) => new Date(ms).toISOString()

/** Spec 2.6: the creation answer. Amount, entity and reference are strings. */
export function creationView(p: Payment): Record<string, unknown> {
  return {
    idempotency_key: p.idempotencyKey,
    seller_id: p.sellerId,
    payment_id: p.paymentId,
    order_id: p.orderId,
    amount: String(p.amount),
    currency: p.currency,
    status: p.status,
    received_at: iso(p.receivedAt),
    reason_code: p.reasonCode,
    reason_message: p.reasonMessage,
    acquirer_transaction_id: p.acquirerTransactionId,
    additional_data: { entity: p.entity, reference: p.reference },
  }
}

function recordView(r: PaymentRecord): Record<string, unknown> {
  const view: Record<string, unknown> = {
    type: r.type,
    amount: String(r.amount),
    status: r.status,
    occurred_at: iso(r.occurredAt),
  }
  if (r.idempotencyKey !== undefined) view.idempotency_key = r.idempotencyKey
  return view
}

/** The status read body chosen on the contract page. */
export function statusView(p: Payment): Record<string, unknown> {
  return {
    payment_id: p.paymentId,
    order_id: p.orderId,
    seller_id: p.sellerId,
    status: p.status,
    amount: String(p.amount),
    refunded_amount: String(p.refunded),
    currency: p.currency,
    received_at: iso(p.receivedAt),
    updated_at: iso(p.updatedAt),
    expires_at: iso(p.expiresAt),
    reason_code: p.reasonCode,
    reason_message: p.reasonMessage,
    additional_data: { entity: p.entity, reference: p.reference },
    payment: { payment_method: "CASH_PAYMENT", brand: "REFPAY", transaction_type: "PURCHASE" },
    records: p.records.map(recordView),
  }
}

/** Controls: the status body plus what only the sandbox knows. */
export function rawView(p: Payment): Record<string, unknown> {
  return {
    ...statusView(p),
    idempotency_key: p.idempotencyKey,
    request_id: p.requestId,
    acquirer_transaction_id: p.acquirerTransactionId,
    customer: p.customer ?? null,
  }
}

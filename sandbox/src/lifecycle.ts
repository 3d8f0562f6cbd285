import { randomInt } from "node:crypto"
import type { SandboxClock } from "./clock"
import type { Account } from "./credentials"
import type { ExpiredStatus } from "./options"
import type { Payment, PaymentRecord, PaymentStore } from "./payment-store"
import type { ReferenceIssuer } from "./references"
import type { CreatePaymentRequest } from "./validation"
import type { EventType, WebhookDispatcher } from "./webhooks"

/** Reason code and text a payment reports in each situation (spec 2.6: numeric-looking code plus text). */
export const REASONS = {
  waiting: { code: "0000", message: "Pending: awaiting customer payment" },
  approved: { code: "0000", message: "Approved" },
  lateApproved: { code: "0000", message: "Approved after cancellation (late settlement)" },
  cancelled: { code: "0000", message: "Cancelled by merchant" },
  cancelledByOperator: { code: "0000", message: "Cancelled by the platform" },
  expired: { code: "EXPIRED", message: "Reference expired unpaid" },
  refunded: { code: "0000", message: "Refunded" },
} as const

const DAY_MS = 86_400_000

/**
 * The state machine of spec 3 plus the contract page's choices (expiry, refunds, late settlement). Every
 * transition appends a record, stamps updated_at and emits its event, so controls and API agree.
 */
export class PaymentLifecycle {
  constructor(
    private readonly clock: SandboxClock,
    private readonly payments: PaymentStore,
    private readonly references: ReferenceIssuer,
    private readonly webhooks: WebhookDispatcher,
    private readonly settings: { expiryDays: number; expiredStatus: ExpiredStatus }
  ) {}

  create(account: Account, req: CreatePaymentRequest): Payment {
    const now = this.clock.now()
    const { entity, reference } = this.references.next(account.entity)
    const payment: Payment = {
      sellerId: account.sellerId,
      paymentId: req.data.payment.payment_id,
      orderId: req.order_id,
      amount: req.data.amount,
      currency: "EUR",
      status: "WAITING",
      refunded: 0,
      receivedAt: now,
      updatedAt: now,
      expiresAt: now + this.settings.expiryDays * DAY_MS,
      reasonCode: REASONS.waiting.code,
      reasonMessage: REASONS.waiting.message,
      entity,
      reference,
      acquirerTransactionId: acquirerId(),
      idempotencyKey: req.idempotency_key,
      requestId: req.request_id,
      records: [
        {
          type: "PAYMENT",
          amount: req.data.amount,
          status: "WAITING",
          occurredAt: now,
          idempotencyKey: req.idempotency_key,
        },
      ],
    }
    const customer = req.data.additional_data?.customer
    if (customer) payment.customer = customer
    this.payments.add(payment)
    this.emit("PENDING_TRANSACTIONS", payment, now)
    return payment
  }

  /** The customer pays (a control). Only WAITING is payable unless `force`: a late settlement. */
  pay(payment: Payment, force: boolean): "ok" | "already-approved" | "not-payable" {
    this.expireIfDue(payment)
    if (payment.status === "APPROVED") return "already-approved"
    if (payment.status !== "WAITING" && !force) return "not-payable"
    const late = payment.status !== "WAITING"
    this.transition(payment, "APPROVED", late ? REASONS.lateApproved : REASONS.approved, {
      type: "APPROVAL",
      amount: payment.amount,
      status: "APPROVED",
    })
    this.emit("APPROVED_TRANSACTIONS", payment, payment.updatedAt)
    return "ok"
  }

  /** WAITING -> CANCELLED, by the merchant (API, with its idempotency key) or the platform (control). */
  cancel(payment: Payment, idempotencyKey?: string): void {
    const reason = idempotencyKey === undefined ? REASONS.cancelledByOperator : REASONS.cancelled
    const record: Omit<PaymentRecord, "occurredAt"> = {
      type: "CANCELLATION",
      amount: payment.amount,
      status: "CANCELLED",
    }
    if (idempotencyKey !== undefined) record.idempotencyKey = idempotencyKey
    this.transition(payment, "CANCELLED", reason, record)
    this.emit("CANCELLED_TRANSACTIONS", payment, payment.updatedAt)
  }

  /** A (partial) refund of an APPROVED payment: the status stays, refunded grows; no event is documented. */
  refund(payment: Payment, amount: number, idempotencyKey: string): void {
    payment.refunded += amount
    this.transition(payment, "APPROVED", REASONS.refunded, {
      type: "REFUND",
      amount,
      status: "REFUNDED",
      idempotencyKey,
    })
  }

  /** WAITING -> expired status at `at` (the moment the reference stopped being valid). */
  expire(payment: Payment, at: number = this.clock.now()): void {
    const status = this.settings.expiredStatus
    this.transition(payment, status, REASONS.expired, { type: "CANCELLATION", amount: payment.amount, status }, at)
    this.emit("CANCELLED_TRANSACTIONS", payment, at)
  }

  /** Lazy expiry, called on every access to a payment. */
  expireIfDue(payment: Payment): void {
    if (payment.status === "WAITING" && this.clock.now() >= payment.expiresAt) this.expire(payment, payment.expiresAt)
  }

  /** Expires every overdue WAITING payment (after the clock moves); oldest first, so events come in order. */
  sweep(): number {
    const now = this.clock.now()
    const due = [...this.payments.waiting].filter((p) => now >= p.expiresAt).sort((a, b) => a.expiresAt - b.expiresAt)
    for (const p of due) this.expire(p, p.expiresAt)
    return due.length
  }

  private transition(
    payment: Payment,
    status: Payment["status"],
    reason: { code: string; message: string },
    record: Omit<PaymentRecord, "occurredAt">,
    at: number = this.clock.now()
  ): void {
    payment.status = status
    payment.reasonCode = reason.code
    payment.reasonMessage = reason.message
    payment.updatedAt = at
    payment.records.push({ ...record, occurredAt: at })
    if (status !== "WAITING") this.payments.waiting.delete(payment)
  }

  private emit(type: EventType, p: Payment, at: number): void {
    this.webhooks.emit(type, p, at)
  }
}

/** 12 digits; a string, like every identifier the platform returns. */
function acquirerId(): string {
  return `${randomInt(100_000, 1_000_000)}${randomInt(0, 1_000_000).toString().padStart(6, "0")}`
}

export type PaymentStatus = "WAITING" | "APPROVED" | "CANCELLED" | "EXPIRED"

export interface PaymentRecord {
  type: "PAYMENT" | "APPROVAL" | "CANCELLATION" | "REFUND"
  amount: number
  status: string
  occurredAt: number
  idempotencyKey?: string
}

/** One reference payment. Times are epoch ms on the sandbox clock, rendered when read. */
export interface Payment {
  sellerId: string
  paymentId: string
  orderId: string
  amount: number
  currency: "EUR"
  status: PaymentStatus
  refunded: number
  receivedAt: number
  updatedAt: number
  expiresAt: number
  reasonCode: string
  reasonMessage: string
  entity: string
  reference: string
  acquirerTransactionId: string
  idempotencyKey: string
  requestId: string
  customer?: Record<string, unknown>
  records: PaymentRecord[]
}

/** Payments of every seller, indexed the ways the API looks them up. */
export class PaymentStore {
  private readonly byKey = new Map<string, Payment>()
  private readonly orders = new Set<string>()
  /** References are unique in a sandbox, whatever the entity and the seller. */
  private readonly byReference = new Map<string, Payment>()
  /** Only WAITING payments can expire, so the clock sweep walks just these. */
  readonly waiting = new Set<Payment>()

  get(sellerId: string, paymentId: string): Payment | undefined {
    return this.byKey.get(`${sellerId}:${paymentId.toLowerCase()}`)
  }

  hasOrder(sellerId: string, orderId: string): boolean {
    return this.orders.has(`${sellerId}:${orderId}`)
  }

  add(payment: Payment): void {
    this.byKey.set(`${payment.sellerId}:${payment.paymentId.toLowerCase()}`, payment)
    this.orders.add(`${payment.sellerId}:${payment.orderId}`)
    this.byReference.set(payment.reference, payment)
    if (payment.status === "WAITING") this.waiting.add(payment)
  }

  /** Controls are not per seller: the first seller (in `sellerIds` order) holding that id wins. */
  find(paymentId: string, sellerIds: string[]): Payment | undefined {
    for (const seller of sellerIds) {
      const payment = this.get(seller, paymentId)
      if (payment) return payment
    }
    return undefined
  }

  /** The payment issued with that reference, and that entity when one is given. */
  findByReference(entity: string | undefined, reference: string): Payment | undefined {
    const payment = this.byReference.get(reference)
    return payment && (entity === undefined || payment.entity === entity) ? payment : undefined
  }

  /**
   * Forgets a payment (the control DELETE /__sandbox/payments/{id}): it can no longer be read, paid, cancelled or
   * refunded, and its order_id and payment_id are free again. Stored idempotent answers and recorded webhook
   * events are kept, as a platform that lost a record would still have them in its gateway and event log.
   */
  delete(payment: Payment): boolean {
    const key = `${payment.sellerId}:${payment.paymentId.toLowerCase()}`
    if (this.byKey.get(key) !== payment) return false
    this.byKey.delete(key)
    this.orders.delete(`${payment.sellerId}:${payment.orderId}`)
    if (this.byReference.get(payment.reference) === payment) this.byReference.delete(payment.reference)
    this.waiting.delete(payment)
    return true
  }

  all(): Payment[] {
    return [...this.byKey.values()]
  }

  get count(): number {
    return this.byKey.size
  }

  reset(): void {
    this.byKey.clear()
    this.orders.clear()
    this.byReference.clear()
    this.waiting.clear()
  }
}

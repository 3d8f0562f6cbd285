/**
 * What the plugin's store routes answer, as a storefront receives it (JSON). The server builds these in
 * src/rules/payment-view.ts and src/queries/order-payment-requests.ts; `wire-types.check.ts` fails `npm run
 * typecheck` when the two drift apart, so this copy is the storefront's view of the same contract, not a second one.
 */

export type RefpayPaymentStatus = "awaiting" | "paid" | "cancelled" | "failed"

/** One REFPAY reference. Entity, reference and amount_display exactly as the platform issued them: show, never reformat. */
export interface RefpayPaymentView {
  order_id: string | null
  payment_session_id: string
  /** The payment collection it pays. */
  payment_collection_id: string | null
  payment_id: string
  entity: string
  reference: string
  amount_cents: number
  /** "24,98 €" (pt-PT, a no-break space before €). */
  amount_display: string
  currency: "EUR"
  status: RefpayPaymentStatus
  platform_status: string
  expires_at: string
  created_at: string
  /** The reference can no longer be paid in time. */
  expired: boolean
  paid_after_cancellation: boolean
  paid_after_cancellation_at: string | null
  checked_at: string
  do_not_ship: boolean
}

/** A reference the current one replaced (after an expiry, or an edit of the order). */
export interface RefpayPreviousReference {
  entity: string
  reference: string
  status: RefpayPaymentStatus
  expired: boolean
  expires_at: string
}

/** paid; a REFPAY reference waiting; an amount a reference may be asked for; nothing owed. */
export type RefpayCollectionState = "paid" | "awaiting_refpay" | "requestable" | "nothing_due"

/** One payment collection of an order (`GET /store/refpay/orders/:id/payment-requests`). */
export interface RefpayPaymentCollection {
  id: string
  status: string
  state: RefpayCollectionState
  amount_cents: number
  currency_code: string
  /** Its REFPAY reference; null when none yet, or while one is being issued. */
  refpay: RefpayPaymentView | null
}

/** `GET /store/refpay/orders/:id/payment-requests`. */
export interface RefpayPaymentRequests {
  order_id: string
  refpay_available: boolean
  outstanding_cents: number
  collections: RefpayPaymentCollection[]
}

/** `GET /store/refpay/orders/:id`. */
export interface RefpayOrderPayment {
  refpay: RefpayPaymentView
  previous_references: RefpayPreviousReference[]
}

/** `GET /store/refpay/payment-collections/:id`: what Medusa's payment link points at. */
export interface RefpayPaymentCollectionAnswer {
  payment_collection: RefpayPaymentCollection
  /** A REFPAY account can take this payment (asking for a reference may still be refused by the shop's rules). */
  refpay_available: boolean
}

/** A call that failed: `notFound` for a 404 (not a REFPAY order, an unknown link), else the shop's message. */
export interface RefpayFailure {
  ok: false
  notFound: boolean
  status: number
  message: string
}

export type RefpayResult<T> = { ok: true; data: T } | RefpayFailure

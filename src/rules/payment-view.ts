import { formatEuros } from "./money"
import type { RefpaySessionData } from "./session-data"
import { interpretStatus, type PaymentOutcome } from "./status"

/**
 * What the storefront's thank-you page and the admin's order widget show of a REFPAY payment. Built field by field
 * from a whitelist: the session data is never spread into it, so nothing the provider stores for itself (customer
 * snapshot, identifiers' inputs) and no setting (credentials, webhook secret) can reach a response.
 */
export interface RefpayPaymentView {
  order_id: string | null
  payment_session_id: string
  /** The payment collection the reference pays (Medusa's payment link is `<storefront>/payment-collection/<id>`). */
  payment_collection_id: string | null
  /** REFPAY's payment id (not Medusa's Payment id). */
  payment_id: string
  /** Exactly as the platform returned them: strings, leading zeros kept, never regrouped. */
  entity: string
  reference: string
  amount_cents: number
  /** "24,98 €" (pt-PT; the space before € is a no-break space). */
  amount_display: string
  currency: "EUR"
  /** What the shop knows: "paid" only once Medusa has recorded the capture. */
  status: PaymentOutcome
  /** The platform's last reported status, verbatim (WAITING, APPROVED, CANCELLED, ...). */
  platform_status: string
  expires_at: string
  /** When the reference was issued. */
  created_at: string
  /** The reference can no longer be paid in time: cancelled for expiry, reported EXPIRED, or past its validity. */
  expired: boolean
  paid_after_cancellation: boolean
  paid_after_cancellation_at: string | null
  /** When the platform's status was last read. */
  checked_at: string
  /** True unless the money is in and the order is still open: the one flag a warehouse needs. */
  do_not_ship: boolean
}

/** What Medusa holds for one REFPAY payment session (the sync's `RefpaySessionState` fits this shape). */
export interface PaymentViewSource {
  /** Payment session id. */
  id: string
  /** Its payment collection, when the caller read it (the sync's `RefpaySessionState` does). */
  paymentCollectionId?: string | null
  /** Medusa's payment session status. */
  status: string
  data: RefpaySessionData
  payment: { capturedAt: string | null } | null
  order: { id: string; status: string } | null
}

/** The view of a session, or null when the session has no reference yet (nothing to show a customer). */
export function buildPaymentView(source: PaymentViewSource, now: Date = new Date()): RefpayPaymentView | null {
  const reference = source.data?.refpay
  if (!reference) return null

  const status = viewStatus(source)
  const orderCanceled = source.order?.status === "canceled"
  const paidAfterCancellationAt = text(source.data.paid_after_cancellation_at) || null
  const expiresAt = text(reference.expires_at)
  const amountCents = Number(reference.amount_cents)

  return {
    order_id: source.order?.id ?? null,
    payment_session_id: source.id,
    payment_collection_id: source.paymentCollectionId ?? null,
    payment_id: text(reference.payment_id),
    entity: text(reference.entity),
    reference: text(reference.reference),
    amount_cents: amountCents,
    amount_display: Number.isSafeInteger(amountCents) ? formatEuros(amountCents) : "",
    currency: "EUR",
    status,
    platform_status: text(reference.status),
    expires_at: expiresAt,
    created_at: text(reference.created_at),
    expired: isExpired(status, source.data, expiresAt, now),
    paid_after_cancellation: paidAfterCancellationAt !== null,
    paid_after_cancellation_at: paidAfterCancellationAt,
    checked_at: text(reference.checked_at),
    do_not_ship: status !== "paid" || orderCanceled || paidAfterCancellationAt !== null,
  }
}

/**
 * Paid means captured in Medusa, the state the fulfilment guard trusts: a stored APPROVED that Medusa has not
 * recorded (an amount mismatch, a sync still to run) stays "awaiting". A cancelled order or session is cancelled
 * whatever the platform last said, unless the platform reported a failure.
 */
function viewStatus(source: PaymentViewSource): PaymentOutcome {
  if (source.payment?.capturedAt || source.status === "captured") return "paid"
  const platform = interpretStatus(text(source.data.refpay!.status)).outcome
  if (source.order?.status === "canceled" || source.status === "canceled") {
    return platform === "failed" ? "failed" : "cancelled"
  }
  if (source.status === "error") return "failed"
  return platform === "paid" ? "awaiting" : platform
}

/**
 * Cancelled for expiry, or reported EXPIRED by the platform; or still awaiting past its validity (the poll job
 * cancels it after the grace period). A reference cancelled before its validity ended was not expired.
 */
function isExpired(status: PaymentOutcome, data: RefpaySessionData, expiresAt: string, now: Date): boolean {
  if (status === "paid") return false
  if (data.expired_at) return true
  if (text(data.refpay!.status).trim().toUpperCase() === "EXPIRED") return true
  const deadline = Date.parse(expiresAt)
  return status === "awaiting" && Number.isFinite(deadline) && now.getTime() > deadline
}

/** Stored identifiers are strings; anything else is shown as text, never re-parsed as a number. */
function text(value: unknown): string {
  if (typeof value === "string") return value
  return value === undefined || value === null ? "" : String(value)
}

/**
 * The session to show for an order with several REFPAY sessions: the captured one (the checkout's, the first paid,
 * when a difference was paid too), else one still open, else the newest reference.
 */
export function primarySession<T extends PaymentViewSource>(sources: T[]): T | null {
  const rank = (s: T) => (s.payment?.capturedAt ? 2 : s.status === "canceled" ? 0 : 1)
  const created = (s: T) => Date.parse(s.data?.refpay?.created_at ?? "") || 0
  const newestFirst = (a: T, b: T) => created(b) - created(a)
  return (
    [...sources].sort((a, b) => rank(b) - rank(a) || (rank(a) === 2 ? -newestFirst(a, b) : newestFirst(a, b)))[0] ??
    null
  )
}

/** An earlier reference of the order, as a storefront may mention it ("expired, a new reference has been sent"). */
export interface PreviousReferenceView {
  entity: string
  reference: string
  status: PaymentOutcome
  expired: boolean
  expires_at: string
}

/** The references the current one replaced, oldest first; never the current one. */
export function storeReferenceHistory(
  current: RefpayPaymentView,
  history: RefpayPaymentView[]
): PreviousReferenceView[] {
  return history
    .filter((view) => view.payment_session_id !== current.payment_session_id)
    .map((view) => ({
      entity: view.entity,
      reference: view.reference,
      status: view.status,
      expired: view.expired,
      expires_at: view.expires_at,
    }))
}

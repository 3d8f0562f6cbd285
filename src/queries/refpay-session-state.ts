import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { refundKeyFor } from "../rules/identifiers"
import { dueCents, paymentCents, toCents } from "../rules/money"
import type { MedusaRefundRecord } from "../rules/refunds"
import { PAID_COLLECTION_STATUSES } from "../rules/outstanding"
import { isRefpayProviderId } from "../rules/provider-ids"
import type { RefpaySessionData } from "../rules/session-data"

/** A REFPAY payment session with what the sync needs to know about its payment and order. */
export interface RefpaySessionState {
  id: string
  status: string
  amount: number
  currencyCode: string
  data: RefpaySessionData
  paymentCollectionId: string
  /** What the payment collection asks for now (Medusa's major units, and cents): an order edit changes it. */
  collection: { amount: number; amountCents: number }
  payment: {
    id: string
    capturedAt: string | null
    canceledAt: string | null
    refundedCents: number
    /** Platform keys of every refund Medusa has of this payment: those it sent, and those it recorded. */
    refundKeys: string[]
    /**
     * The platform keys the provider recorded in the payment's data (`refund_keys`): the platform refunds Medusa
     * recorded, and each Medusa refund whose call the platform answered with success.
     */
    recordedRefundKeys: string[]
    /** Medusa's refunds of this payment, and which of them record a refund the platform made by itself. */
    refunds: MedusaRefundRecord[]
    recordingRefundIds: string[]
  } | null
  providerId: string
  order: { id: string; status: string; email: string | null; displayId: number | string | null } | null
  /** The other REFPAY sessions with a reference on the same payment collection (earlier or renewed references). */
  siblings: SiblingSession[]
  /** Another payment collection of the order holds money (this session pays a difference requested later). */
  orderPaidElsewhere: boolean
}

export interface SiblingSession {
  id: string
  status: string
  captured: boolean
  expired: boolean
}

/** Collection statuses at which some of the customer's money is in. */
const HOLDS_MONEY: ReadonlySet<string> = new Set([...PAID_COLLECTION_STATUSES, "partially_captured"])

/** Loads a REFPAY session by id; null when it does not exist, is not REFPAY's, or has no reference yet. */
export async function loadRefpaySession(
  container: MedusaContainer,
  sessionId: string
): Promise<RefpaySessionState | null> {
  return (await loadRefpaySessions(container, [sessionId])).get(sessionId) ?? null
}

/**
 * The account and REFPAY payment of a session, from the session alone (one statement): what a webhook needs to
 * tell whether an event is about it, before the sync reads everything under the lock. Null when the session does not
 * exist, is not REFPAY's, or has no reference yet (as loadRefpaySession).
 */
export async function loadRefpaySessionPayment(
  container: MedusaContainer,
  sessionId: string
): Promise<{ providerId: string; paymentId: string } | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "data"],
    filters: { id: sessionId },
  })
  const row = data[0]
  if (!row || !isRefpayProviderId(row.provider_id) || !row.data?.refpay) return null
  return { providerId: row.provider_id, paymentId: String(row.data.refpay.payment_id) }
}

/**
 * Loads REFPAY sessions by id in two queries whatever their number (the poll run reads a page of due sessions at
 * once); sessions that do not exist, are not REFPAY's or have no reference yet are left out.
 */
export async function loadRefpaySessions(
  container: MedusaContainer,
  sessionIds: string[]
): Promise<Map<string, RefpaySessionState>> {
  const states = new Map<string, RefpaySessionState>()
  if (sessionIds.length === 0) return states
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: [
      "id",
      "status",
      "amount",
      "currency_code",
      "data",
      "provider_id",
      "payment_collection_id",
      "payment_collection.amount",
      "payment.id",
      "payment.captured_at",
      "payment.canceled_at",
      "payment.data",
      "payment.refunds.id",
      "payment.refunds.raw_amount",
      "payment.refunds.created_at",
      "payment_collection.order.id",
      "payment_collection.order.status",
      "payment_collection.order.email",
      "payment_collection.order.display_id",
      "payment_collection.order.payment_collections.id",
      "payment_collection.order.payment_collections.status",
    ],
    filters: { id: sessionIds },
  })
  const rows = data.filter((row) => isRefpayProviderId(row.provider_id) && row.data?.refpay)
  const siblings = await loadSiblings(
    container,
    rows.map((row) => row.payment_collection_id)
  )
  for (const row of rows) {
    const order = row.payment_collection?.order
    states.set(row.id, {
      id: row.id,
      status: row.status,
      amount: Number(row.amount),
      currencyCode: row.currency_code,
      data: row.data,
      paymentCollectionId: row.payment_collection_id,
      collection: collectionAmounts(row.payment_collection?.amount ?? row.amount),
      payment: row.payment
        ? {
            id: row.payment.id,
            capturedAt: row.payment.captured_at ?? null,
            canceledAt: row.payment.canceled_at ?? null,
            refundedCents: paymentCents(row.payment).refunded_cents,
            refundKeys: medusaRefundKeys(row.data.refpay.payment_id, row.payment),
            recordedRefundKeys: stringsOf(row.payment.data?.refund_keys),
            refunds: (row.payment.refunds ?? []).map(refundRecord),
            recordingRefundIds: stringsOf(row.payment.data?.recording_refund_ids),
          }
        : null,
      providerId: row.provider_id,
      order: order
        ? { id: order.id, status: order.status, email: order.email ?? null, displayId: order.display_id ?? null }
        : null,
      siblings: (siblings.get(row.payment_collection_id) ?? []).filter((sibling) => sibling.id !== row.id),
      orderPaidElsewhere: (order?.payment_collections ?? []).some(
        (c: { id: string; status: string } | null) =>
          !!c && c.id !== row.payment_collection_id && HOLDS_MONEY.has(c.status)
      ),
    })
  }
  return states
}

function collectionAmounts(amount: unknown): RefpaySessionState["collection"] {
  const major = Number(amount)
  return { amount: major, amountCents: dueCents(major) }
}

/**
 * The platform keys of a payment's refunds as Medusa has them: each Medusa refund was sent under
 * `refundKeyFor(payment, refund id)`, and the refunds the platform made by itself were recorded with their own key
 * (`refund_keys` in the payment's data).
 */
function medusaRefundKeys(
  refpayPaymentId: string,
  payment: { data?: Record<string, unknown> | null; refunds?: { id: string }[] | null }
): string[] {
  const recorded = stringsOf(payment.data?.refund_keys)
  return [...(payment.refunds ?? []).map((refund) => refundKeyFor(refpayPaymentId, refund.id)), ...recorded]
}

/** The strings of a list kept in a payment's data (written by the provider; anything else is ignored). */
function stringsOf(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((k): k is string => typeof k === "string") : []
}

function refundRecord(refund: { id: string; raw_amount: unknown; created_at: string | Date }): MedusaRefundRecord {
  return {
    id: refund.id,
    cents: toCents(refund.raw_amount as BigNumberInput),
    createdAt: new Date(refund.created_at).toISOString(),
  }
}

/** The REFPAY sessions with a reference of each payment collection (a session's siblings are the others). */
async function loadSiblings(
  container: MedusaContainer,
  collectionIds: string[]
): Promise<Map<string, SiblingSession[]>> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "provider_id", "data", "payment_collection_id", "payment.captured_at"],
    filters: { payment_collection_id: [...new Set(collectionIds)] },
  })
  const byCollection = new Map<string, SiblingSession[]>()
  for (const s of data.filter((s) => isRefpayProviderId(s.provider_id) && s.data?.refpay)) {
    const sibling = { id: s.id, status: s.status, captured: !!s.payment?.captured_at, expired: !!s.data?.expired_at }
    byCollection.set(s.payment_collection_id, [...(byCollection.get(s.payment_collection_id) ?? []), sibling])
  }
  return byCollection
}

/** The fields refpaySessionIdsForOrder asks of an order. */
interface OrderSessions {
  payment_collections?: ({
    payment_sessions?: { id: string; provider_id: string; data?: { refpay?: unknown } | null }[]
  } | null)[]
}

/** The REFPAY sessions of an order that carry a reference (normally one). */
export async function refpaySessionIdsForOrder(container: MedusaContainer, orderId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "payment_collections.payment_sessions.id",
      "payment_collections.payment_sessions.provider_id",
      "payment_collections.payment_sessions.data",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as OrderSessions | undefined
  return (order?.payment_collections ?? [])
    .flatMap((collection) => collection?.payment_sessions ?? [])
    .filter((session) => isRefpayProviderId(session.provider_id) && session.data?.refpay)
    .map((session) => session.id)
}

/** The REFPAY session behind a Medusa payment, if the payment is REFPAY's. */
export async function refpaySessionIdsOfPayment(container: MedusaContainer, paymentId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "provider_id", "payment_session_id"],
    filters: { id: paymentId },
  })
  const payment = data[0] as { provider_id: string; payment_session_id: string | null } | undefined
  return payment && isRefpayProviderId(payment.provider_id) && payment.payment_session_id
    ? [payment.payment_session_id]
    : []
}

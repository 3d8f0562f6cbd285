import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createRedactor } from "../../../lib/refpay"
import { REFPAY_MODULE, type RefpayModuleService } from "../../../modules/refpay"
import { formatEuros, paymentCents } from "../../../rules/money"

/**
 * One REFPAY payment as the admin page lists it (attention lists, search results): the order it belongs to, the
 * reference exactly as the platform returned it, Medusa's money state and the poll job's last check. Built field
 * by field: nothing else of the session data (customer snapshot, identifiers) is passed on.
 */
export interface AdminPaymentRow {
  payment_session_id: string
  /** The REFPAY account of the payment, `pp_refpay_<id>`. */
  provider_id: string
  /** Medusa's session status, or "deleted": Medusa deleted the session, the row is the plugin's own record. */
  session_status: string
  order: { id: string; display_id: number | null; status: string; email: string | null } | null
  /** REFPAY's payment id. */
  refpay_payment_id: string
  entity: string
  reference: string
  amount_cents: number
  amount_display: string
  platform_status: string
  created_at: string | null
  expires_at: string | null
  paid_after_cancellation_at: string | null
  /** Medusa's Payment for the session, once the payment was recorded. */
  payment: { id: string; captured_cents: number; refunded_cents: number; refundable_cents: number } | null
  /**
   * The platform's refunded total as the plugin last read it (the larger of the session's and the payment's
   * `data.refpay.refunded_cents`: the sync writes one, the provider the other, and refunds only grow); null when
   * neither holds a number.
   */
  platform_refunded_cents: number | null
  last_check: { outcome: string | null; checked_at: string | null; failures: number; error: string | null } | null
}

const FIELDS = [
  "id",
  "status",
  "provider_id",
  "data",
  "payment.id",
  "payment.data",
  "payment.captures.raw_amount",
  "payment.refunds.raw_amount",
  "payment_collection.order.id",
  "payment_collection.order.display_id",
  "payment_collection.order.status",
  "payment_collection.order.email",
]

/** Rows of the given sessions, in the order given; sessions that no longer exist are left out. */
export async function loadPaymentRows(
  container: MedusaContainer,
  sessionIds: string[],
  secrets: (string | undefined)[]
): Promise<AdminPaymentRow[]> {
  if (sessionIds.length === 0) return []
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [{ data }, checks] = await Promise.all([
    query.graph({ entity: "payment_session", fields: FIELDS, filters: { id: sessionIds } }),
    container.resolve<RefpayModuleService>(REFPAY_MODULE).listRefpayPaymentChecks({ session_id: sessionIds }),
  ])
  const bySession = new Map((data as SessionRow[]).map((row) => [row.id, row]))
  return await rowsOf(container, sessionIds, bySession, checks, secrets)
}

/** The session fields a row is built from, as `payment_session.<field>` when read through a payment check's link. */
export const PAYMENT_SESSION_FIELDS = FIELDS

/**
 * Rows of payment checks read with their session through the check-to-session link (src/links), in the order
 * given: one read instead of the checks, then their sessions. A check whose session Medusa deleted comes with none.
 */
export async function paymentRowsOfChecks(
  container: MedusaContainer,
  checks: (PaymentCheck & { payment_session?: unknown })[],
  secrets: (string | undefined)[]
): Promise<AdminPaymentRow[]> {
  const bySession = new Map(
    checks
      .filter((check) => check.payment_session)
      .map((check) => [check.session_id, check.payment_session as SessionRow])
  )
  return await rowsOf(
    container,
    checks.map((check) => check.session_id),
    bySession,
    checks,
    secrets
  )
}

async function rowsOf(
  container: MedusaContainer,
  sessionIds: string[],
  bySession: Map<string, SessionRow>,
  checks: PaymentCheck[],
  secrets: (string | undefined)[]
): Promise<AdminPaymentRow[]> {
  const checkBySession = new Map(checks.map((check) => [check.session_id, check]))
  const deleted = await deletedSessionRows(container, sessionIds, bySession, checkBySession)
  return sessionIds
    .map((id) => bySession.get(id) ?? deleted.get(id))
    .filter((row): row is SessionRow => !!row?.data?.refpay)
    .map((row) => toRow(row, checkBySession.get(row.id), secrets))
}

/**
 * Rows for sessions Medusa deleted, from the plugin's own record of their reference (the check's `reference` and
 * `order_id`): status "deleted", no Medusa payment, the order read as it is now.
 */
async function deletedSessionRows(
  container: MedusaContainer,
  sessionIds: string[],
  bySession: Map<string, SessionRow>,
  checkBySession: Map<string, PaymentCheck>
): Promise<Map<string, SessionRow>> {
  const kept = sessionIds
    .filter((id) => !bySession.has(id))
    .map((id) => checkBySession.get(id))
    .filter((check): check is PaymentCheck => !!check?.reference)
  if (kept.length === 0) return new Map()
  const orderIds = [...new Set(kept.map((check) => check.order_id).filter((id): id is string => !!id))]
  const { data: orders } = orderIds.length
    ? await container
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "order", fields: ["id", "display_id", "status", "email"], filters: { id: orderIds } })
    : { data: [] }
  const orderById = new Map(
    (orders as NonNullable<NonNullable<SessionRow["payment_collection"]>["order"]>[]).map((o) => [o.id, o])
  )
  return new Map(
    kept.map((check) => [
      check.session_id,
      {
        id: check.session_id,
        status: "deleted",
        provider_id: check.provider_id,
        data: {
          refpay: check.reference as Record<string, unknown>,
          paid_after_cancellation_at: check.late_at ? new Date(check.late_at).toISOString() : undefined,
        },
        payment: null,
        payment_collection: { order: check.order_id ? (orderById.get(check.order_id) ?? null) : null },
      },
    ])
  )
}

/** A payment session as FIELDS reads it (query.graph's rows are untyped for these fields). */
interface SessionRow {
  id: string
  status: string
  provider_id: string
  data: { refpay: Record<string, unknown>; paid_after_cancellation_at?: unknown }
  payment?: ({ id: string; data?: { refpay?: unknown } | null } & Parameters<typeof paymentCents>[0]) | null
  payment_collection?: {
    order?: { id: string; display_id?: number | null; status: string; email?: string | null } | null
  } | null
}

type PaymentCheck = Awaited<ReturnType<RefpayModuleService["listRefpayPaymentChecks"]>>[number]

function toRow(row: SessionRow, check: PaymentCheck | undefined, secrets: (string | undefined)[]): AdminPaymentRow {
  const refpay = row.data.refpay
  const order = row.payment_collection?.order
  const payment = row.payment
  const amountCents = Number(refpay.amount_cents)
  return {
    payment_session_id: row.id,
    provider_id: row.provider_id,
    session_status: row.status,
    order: order
      ? { id: order.id, display_id: order.display_id ?? null, status: order.status, email: order.email ?? null }
      : null,
    refpay_payment_id: text(refpay.payment_id),
    entity: text(refpay.entity),
    reference: text(refpay.reference),
    amount_cents: amountCents,
    amount_display: Number.isSafeInteger(amountCents) ? formatEuros(amountCents) : "",
    platform_status: text(refpay.status),
    created_at: text(refpay.created_at) || null,
    expires_at: text(refpay.expires_at) || null,
    paid_after_cancellation_at: text(row.data.paid_after_cancellation_at) || null,
    payment: payment ? { id: payment.id, ...paymentCents(payment) } : null,
    platform_refunded_cents:
      row.status === "deleted"
        ? Number(check?.platform_refunded_cents ?? 0)
        : platformRefundedCents(refpay, payment?.data?.refpay),
    last_check: check
      ? {
          outcome: check.last_outcome ?? null,
          checked_at: check.last_checked_at ? new Date(check.last_checked_at).toISOString() : null,
          failures: Number(check.failures ?? 0),
          // Client errors are redacted already; again here, because this text reaches the browser.
          error: check.last_error ? createRedactor(secrets).redactText(String(check.last_error)).slice(0, 300) : null,
        }
      : null,
  }
}

/** Same rule as the refund_mismatch list's SQL (session-queries.ts): the larger of the numbers stored, if any. */
export function platformRefundedCents(...references: unknown[]): number | null {
  const totals = references
    .map((reference) =>
      reference && typeof reference === "object"
        ? (reference as { refunded_cents?: unknown }).refunded_cents
        : undefined
    )
    .filter((cents): cents is number => typeof cents === "number" && Number.isFinite(cents))
  return totals.length === 0 ? null : Math.max(...totals)
}

/** Stored identifiers are strings; anything else is shown as text, never re-parsed as a number. */
function text(value: unknown): string {
  if (typeof value === "string") return value
  return value === undefined || value === null ? "" : String(value)
}

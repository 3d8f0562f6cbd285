import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../../../modules/refpay"
import { ATTENTION_KINDS, type AttentionKind } from "../../../../rules/attention-kinds"
import { loadPaymentRows, PAYMENT_SESSION_FIELDS, paymentRowsOfChecks, type AdminPaymentRow } from "../payment-rows"
import {
  countSessions,
  expiringBetween,
  pageSessions,
  PAID_AFTER_CANCELLATION_HELD,
  REFUND_MISMATCH,
  type SessionSelection,
} from "../../../../medusa-compat/medusa-tables/session-queries"

/**
 * The payments a shop owner should look at, by kind:
 * - expiring: waiting references whose validity ends within 24 hours (a reminder call may save the sale);
 * - paid_after_cancellation: money received for a cancelled order and not (fully) refunded yet;
 * - refund_mismatch: a captured payment whose refunded total in Medusa differs from the platform's as last read;
 * - amount_mismatch: the platform reports a payment for another amount than the order's (never captured);
 * - unknown_payment: the platform does not know the reference (wrong environment or credentials?);
 * - platform_error: the last status check could not reach the platform;
 * - paid_after_session_deleted: a reference paid after Medusa deleted its payment session (the plugin's own record
 *   of it found the payment; nothing is in Medusa), not refunded yet.
 * The last four are the poll job's record of the last check (`refpay_payment_check.last_outcome`). Every kind is
 * counted (COUNT(*)) and paged (LIMIT/OFFSET in a stable order) by PostgreSQL: the counts run on every view of the
 * admin's order list, and no query's rows or bindings grow with the number of payments.
 */
const CHECK_KINDS = ["amount_mismatch", "unknown_payment", "platform_error", "paid_after_session_deleted"] as const
const isCheckKind = (kind: AttentionKind): kind is (typeof CHECK_KINDS)[number] =>
  (CHECK_KINDS as readonly string[]).includes(kind)
export const EXPIRING_WITHIN_MS = 24 * 60 * 60 * 1000

export interface AttentionPage {
  kind: AttentionKind
  payments: AdminPaymentRow[]
  count: number
  limit: number
  offset: number
}

export async function listAttention(
  container: MedusaContainer,
  kind: AttentionKind,
  page: { limit: number; offset: number },
  secrets: (string | undefined)[],
  now: Date = new Date()
): Promise<AttentionPage> {
  if (isCheckKind(kind)) {
    // One read: the page of checks with their sessions, through the check-to-session link (src/links).
    const { data, metadata } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
      entity: "refpay_payment_check",
      fields: ["*", ...PAYMENT_SESSION_FIELDS.map((field) => `payment_session.${field}`)],
      filters: { last_outcome: kind },
      pagination: { take: page.limit, skip: page.offset, order: { last_checked_at: "DESC", id: "ASC" } },
    })
    const payments = await paymentRowsOfChecks(container, data as Parameters<typeof paymentRowsOfChecks>[1], secrets)
    return { kind, payments, count: metadata?.count ?? 0, ...page }
  }
  const selection = sessionSelection(kind, now)
  const [ids, count] = await Promise.all([
    pageSessions(container, selection, page),
    countSessions(container, selection),
  ])
  return { kind, payments: await loadPaymentRows(container, ids, secrets), count, ...page }
}

type SessionKind = Exclude<AttentionKind, (typeof CHECK_KINDS)[number]>

/** The kinds read off the sessions and payments themselves, as SQL (session-queries.ts). */
function sessionSelection(kind: SessionKind, now: Date): SessionSelection {
  switch (kind) {
    case "expiring":
      return expiringBetween(now, new Date(now.getTime() + EXPIRING_WITHIN_MS))
    case "paid_after_cancellation":
      return PAID_AFTER_CANCELLATION_HELD
    case "refund_mismatch":
      return REFUND_MISMATCH
  }
}

/** How many payments of each kind need attention: one COUNT(*) per kind, no rows loaded. */
export async function countAttention(
  container: MedusaContainer,
  now: Date = new Date()
): Promise<Record<AttentionKind, number>> {
  const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  const count = async (kind: AttentionKind): Promise<number> =>
    isCheckKind(kind)
      ? (await checks.listAndCountRefpayPaymentChecks({ last_outcome: kind }, { take: 1, select: ["id"] }))[1]
      : countSessions(container, sessionSelection(kind, now))
  const counts = await Promise.all(ATTENTION_KINDS.map(count))
  return Object.fromEntries(ATTENTION_KINDS.map((kind, i) => [kind, counts[i]!])) as Record<AttentionKind, number>
}

import type { MedusaContainer } from "@medusajs/framework/types"
import { REFPAY_MODULE, type RefpayModuleService } from "../modules/refpay"
import { loadPaymentRows, type AdminPaymentRow } from "./payment-rows"
import { findSessionsExpiringBetween, findSessionsPaidAfterCancellation } from "./session-queries"

/**
 * The payments a shop owner should look at, by kind:
 * - expiring: waiting references whose validity ends within 24 hours (a reminder call may save the sale);
 * - paid_after_cancellation: money received for a cancelled order and not (fully) refunded yet;
 * - amount_mismatch: the platform reports a payment for another amount than the order's (never captured);
 * - unknown_payment: the platform does not know the reference (wrong environment or credentials?);
 * - platform_error: the last status check could not reach the platform.
 * The last three are the poll job's record of the last check (`refpay_payment_check.last_outcome`).
 */
export const ATTENTION_KINDS = ["expiring", "paid_after_cancellation", "amount_mismatch", "unknown_payment", "platform_error"] as const
export type AttentionKind = (typeof ATTENTION_KINDS)[number]

const CHECK_KINDS = new Set<AttentionKind>(["amount_mismatch", "unknown_payment", "platform_error"])
export const EXPIRING_WITHIN_MS = 24 * 60 * 60 * 1000

export interface AttentionPage {
  kind: AttentionKind
  payments: AdminPaymentRow[]
  count: number
  limit: number
  offset: number
}

/** Open orders only: a cancelled order's waiting reference is being cancelled anyway. */
const stillWaiting = (row: AdminPaymentRow) => row.order?.status !== "canceled" && row.session_status === "pending_authorization"
const notRefunded = (row: AdminPaymentRow) => (row.payment?.refundable_cents ?? 0) > 0

export async function listAttention(
  container: MedusaContainer,
  kind: AttentionKind,
  page: { limit: number; offset: number },
  secrets: (string | undefined)[],
  now: Date = new Date()
): Promise<AttentionPage> {
  if (CHECK_KINDS.has(kind)) {
    const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
    const [rows, count] = await checks.listAndCountRefpayPaymentChecks(
      { last_outcome: kind },
      { take: page.limit, skip: page.offset, order: { last_checked_at: "DESC", id: "ASC" }, select: ["session_id"] }
    )
    const payments = await loadPaymentRows(container, rows.map((row) => row.session_id), secrets)
    return { kind, payments, count, ...page }
  }
  // The two lists below are small by nature (a day's expiries, late payments): filtered here, then paged.
  const all = await loadFiltered(container, kind, secrets, now)
  return { kind, payments: all.slice(page.offset, page.offset + page.limit), count: all.length, ...page }
}

async function loadFiltered(container: MedusaContainer, kind: AttentionKind, secrets: (string | undefined)[], now: Date): Promise<AdminPaymentRow[]> {
  if (kind === "expiring") {
    const ids = await findSessionsExpiringBetween(container, now, new Date(now.getTime() + EXPIRING_WITHIN_MS))
    return (await loadPaymentRows(container, ids, secrets)).filter(stillWaiting)
  }
  const ids = await findSessionsPaidAfterCancellation(container)
  return (await loadPaymentRows(container, ids, secrets)).filter(notRefunded)
}

/** How many payments of each kind need attention. */
export async function countAttention(
  container: MedusaContainer,
  secrets: (string | undefined)[],
  now: Date = new Date()
): Promise<Record<AttentionKind, number>> {
  const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  const checkCount = async (outcome: AttentionKind) =>
    (await checks.listAndCountRefpayPaymentChecks({ last_outcome: outcome }, { take: 1, select: ["id"] }))[1]
  const [expiring, late, mismatch, unknown, failing] = await Promise.all([
    loadFiltered(container, "expiring", secrets, now),
    loadFiltered(container, "paid_after_cancellation", secrets, now),
    checkCount("amount_mismatch"),
    checkCount("unknown_payment"),
    checkCount("platform_error"),
  ])
  return {
    expiring: expiring.length,
    paid_after_cancellation: late.length,
    amount_mismatch: mismatch,
    unknown_payment: unknown,
    platform_error: failing,
  }
}

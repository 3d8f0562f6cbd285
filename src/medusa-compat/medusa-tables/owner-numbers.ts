import type { MedusaContainer } from "@medusajs/framework/types"
import {
  daysOf,
  TIME_TO_PAY_BUCKETS,
  timeToPayBucket,
  type Period,
  type TimeToPayBucket,
} from "../../rules/owner-numbers"
import { AMOUNT_CENTS, checkedIn, rows } from "./owner-numbers-sql"

/**
 * The shop owner's conversion and recovered numbers for one REFPAY account and a period of Lisbon days, counted
 * by PostgreSQL over the poll job's check records (owner-numbers-sql.ts says how and why). The reconciliation and the
 * CSV export's rows are beside it (reconciliation.ts, period-payments.ts).
 */

export interface CountAndAmount {
  count: number
  amount_cents: number
}

export interface Conversion {
  issued: CountAndAmount
  paid: CountAndAmount
  waiting: CountAndAmount
  expired: CountAndAmount
  renewed: CountAndAmount
  cancelled: CountAndAmount
  /** Paid of issued, 0 to 1 (0 when none was issued). */
  paid_share: number
  /** Per Lisbon day of the period: references issued that day, and payments received that day. */
  per_day: { day: string; issued: number; paid: number }[]
  /** References issued in the period and paid, by days from issue to payment. */
  time_to_pay: { days: TimeToPayBucket; count: number }[]
}

const OUTCOMES = ["issued", "paid", "waiting", "expired", "renewed", "cancelled"] as const

/**
 * What became of the references issued in the period: paid (a Medusa payment captured), still waiting, expired (and
 * of those, renewed), cancelled otherwise (the order cancelled or edited, another reference paid).
 */
export async function conversion(container: MedusaContainer, providerId: string, period: Period): Promise<Conversion> {
  const conditions: Record<(typeof OUTCOMES)[number], string> = {
    issued: "true",
    paid: "c.paid_at is not null",
    waiting: "c.session_status = 'pending_authorization'",
    expired: "c.expired_at is not null",
    renewed: "c.renewed",
    cancelled: "c.session_status = 'canceled' and c.expired_at is null and c.paid_at is null",
  }
  const select = OUTCOMES.map(
    (outcome) =>
      `count(*) filter (where ${conditions[outcome]})::int as ${outcome}_count,
       coalesce(sum(${AMOUNT_CENTS}) filter (where ${conditions[outcome]}), 0)::bigint as ${outcome}_amount`
  ).join(",\n")
  const bindings = [providerId, period.from, period.to]
  // One pass over the period's references, by day of issue and days to pay (null: not paid); the totals, the days
  // and the time-to-pay buckets (timeToPayBucket) are then sums of these few hundred rows.
  const groups = await rows<Record<string, string | number | null>>(
    container,
    `select to_char(c.issued_day, 'YYYY-MM-DD') as day, c.paid_day - c.issued_day as wait, ${select}
       ${checkedIn("c.issued_day")} group by c.issued_day, 2`,
    bindings
  )
  const paidPerDay = await rows<{ day: string; count: number }>(
    container,
    `select to_char(c.paid_day, 'YYYY-MM-DD') as day, count(*)::int as count ${checkedIn("c.paid_day")} group by c.paid_day`,
    bindings
  )
  const sumOf = (key: string) => groups.reduce((sum, row) => sum + Number(row[key] ?? 0), 0)
  const of = (outcome: (typeof OUTCOMES)[number]): CountAndAmount => ({
    count: sumOf(`${outcome}_count`),
    amount_cents: sumOf(`${outcome}_amount`),
  })
  const issuedOn = new Map<string, number>()
  for (const row of groups)
    issuedOn.set(String(row.day), (issuedOn.get(String(row.day)) ?? 0) + Number(row.issued_count))
  const paidOn = new Map(paidPerDay.map((row) => [row.day, Number(row.count)]))
  const buckets = new Map<TimeToPayBucket, number>()
  for (const row of groups.filter((row) => row.wait !== null)) {
    const bucket = timeToPayBucket(Number(row.wait))
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + Number(row.issued_count))
  }
  const total = of("issued")
  const paid = of("paid")
  return {
    issued: total,
    paid,
    waiting: of("waiting"),
    expired: of("expired"),
    renewed: of("renewed"),
    cancelled: of("cancelled"),
    paid_share: total.count === 0 ? 0 : Math.round((paid.count / total.count) * 10_000) / 10_000,
    per_day: daysOf(period).map((day) => ({ day, issued: issuedOn.get(day) ?? 0, paid: paidOn.get(day) ?? 0 })),
    time_to_pay: TIME_TO_PAY_BUCKETS.map((days) => ({ days, count: buckets.get(days) ?? 0 })),
  }
}

export interface Recovered {
  /** Payments received in the period on a reference the customer had been reminded of (before paying). */
  paid_after_reminder: CountAndAmount
  /** Payments received in the period on a reference that replaced an expired one. */
  paid_on_renewed_reference: CountAndAmount
  /** Payments that arrived after their order was cancelled, flagged in the period: sent back, or kept (recorded). */
  late_payments_refunded: CountAndAmount
  late_payments_recorded: CountAndAmount
}

/** What the plugin's reminders, renewals and late-payment handling brought in (or sent back) in the period. */
export async function recovered(container: MedusaContainer, providerId: string, period: Period): Promise<Recovered> {
  const [paid] = await rows<Record<string, string | number>>(
    container,
    `select count(*) filter (where c.reminded_at < c.paid_at)::int as reminded_count,
            coalesce(sum(c.captured_cents) filter (where c.reminded_at < c.paid_at), 0)::bigint as reminded_amount,
            count(*) filter (where c.on_renewed_reference)::int as renewed_count,
            coalesce(sum(c.captured_cents) filter (where c.on_renewed_reference), 0)::bigint as renewed_amount
       ${checkedIn("c.paid_day")} and (c.reminded_at is not null or c.on_renewed_reference)`,
    [providerId, period.from, period.to]
  )
  const refundedBack = "c.captured_cents > 0 and c.refunded_cents >= c.captured_cents"
  const [late] = await rows<Record<string, string | number>>(
    container,
    `select count(*) filter (where ${refundedBack})::int as refunded_count,
            coalesce(sum(c.refunded_cents) filter (where ${refundedBack}), 0)::bigint as refunded_amount,
            count(*) filter (where not (${refundedBack}))::int as recorded_count,
            coalesce(sum(c.captured_cents - c.refunded_cents) filter (where not (${refundedBack})), 0)::bigint as recorded_amount
       ${checkedIn("c.late_at")}`,
    [providerId, period.from, period.to]
  )
  const pair = (row: Record<string, string | number> | undefined, key: string): CountAndAmount => ({
    count: Number(row?.[`${key}_count`] ?? 0),
    amount_cents: Number(row?.[`${key}_amount`] ?? 0),
  })
  return {
    paid_after_reminder: pair(paid, "reminded"),
    paid_on_renewed_reference: pair(paid, "renewed"),
    late_payments_refunded: pair(late, "refunded"),
    late_payments_recorded: pair(late, "recorded"),
  }
}

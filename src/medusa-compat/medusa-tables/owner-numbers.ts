import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import {
  daysOf,
  medusaPaymentState,
  SHOP_TIME_ZONE,
  TIME_TO_PAY_BUCKETS,
  timeToPayBucket,
  type Period,
  type PeriodPayment,
  type TimeToPayBucket,
} from "../../rules/owner-numbers"

/**
 * The shop owner's numbers for one REFPAY registration and a period of Lisbon days, counted by PostgreSQL: no row is
 * loaded to be counted in JavaScript. A renewed reference is a session of its own on the same payment collection
 * (issue-reference), so every reference ever issued is one session; its issue time is the platform's.
 *
 * They read the poll job's check records alone (`c`), through their indexes on the registration and the Lisbon day
 * of issue or payment (or the late-payment time): each check carries a copy of what its reference counts by
 * (session status, capture, Medusa's captured and refunded cents, the platform's amounts;
 * medusa-compat/medusa-tables/reference-copies.ts), refreshed after every check and every Medusa capture or refund. Joining every session, payment, capture and refund of a period
 * instead takes seconds at 100,000 references. A reference is counted once the job watches it (at most one tick
 * after its order). Orders are joined only for the differences listed and the rows exported.
 */

/**
 * The registration's (bound first) checks whose Lisbon day of issue or payment, or instant of a late payment, is
 * within the period (bound next: from, to); each through its index.
 */
function checkedIn(when: "c.issued_day" | "c.paid_day" | "c.late_at"): string {
  const within = when === "c.late_at" ? inPeriod(when) : `${when} between ?::date and ?::date`
  return `from refpay_payment_check c where c.provider_id = ? and c.deleted_at is null and ${within}`
}

const AMOUNT_CENTS = `coalesce(c.amount_cents, 0)`

/** Within the period's Lisbon days (two bindings: from, to). */
function inPeriod(instant: string): string {
  return `${instant} >= (?::date)::timestamp at time zone '${SHOP_TIME_ZONE}'
      and ${instant} < (?::date + 1)::timestamp at time zone '${SHOP_TIME_ZONE}'`
}

function pg(container: MedusaContainer): Knex {
  return container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
}

/**
 * One query's rows, without PostgreSQL's parallel workers: starting them costs more than they save on a period's
 * aggregates (100,000 references: 52 ms instead of about 100 for the conversion, 33 instead of 58 for the
 * reconciliation's days, on two cores), and a shop's database has better use for them.
 */
async function rows<T>(container: MedusaContainer, sql: string, bindings: unknown[]): Promise<T[]> {
  return pg(container).transaction(async (trx) => {
    await trx.raw("set local max_parallel_workers_per_gather = 0")
    return (await trx.raw(sql, bindings as Knex.RawBinding[])).rows as T[]
  })
}

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

export interface ReconciliationDay {
  day: string
  medusa_captured_cents: number
  medusa_refunded_cents: number
  platform_approved_cents: number
  platform_refunded_cents: number
}

export interface ReconciliationDifference {
  order_id: string | null
  order_display_id: number | null
  session_id: string
  entity: string
  reference: string
  paid_day: string
  medusa_captured_cents: number
  medusa_refunded_cents: number
  /** Null when the platform never reported an amount for it. */
  platform_approved_cents: number | null
  platform_refunded_cents: number
}

export interface Reconciliation {
  per_day: ReconciliationDay[]
  differences: ReconciliationDifference[]
}

/** Every difference is listed, up to this many (a shop with more has a problem the first ones show). */
export const MAX_DIFFERENCES = 1_000

/** The check's session (its entity and reference) and order. */
const SESSION_AND_ORDER = `
  join payment_session ps on ps.id = c.session_id
  left join order_payment_collection opc on opc.payment_collection_id = ps.payment_collection_id and opc.deleted_at is null
  left join "order" o on o.id = opc.order_id`

/**
 * Per Lisbon day of payment in the period: what Medusa captured and refunded for the registration's REFPAY payments
 * against what the platform last reported for the same payments (approved amount, refunded amount); and each payment
 * where the two differ, with its order.
 */
export async function reconciliation(
  container: MedusaContainer,
  providerId: string,
  period: Period
): Promise<Reconciliation> {
  const bindings = [providerId, period.from, period.to]
  const days = await rows<Record<string, string | number>>(
    container,
    `select to_char(c.paid_day, 'YYYY-MM-DD') as day,
            sum(c.captured_cents)::bigint as medusa_captured_cents,
            sum(c.refunded_cents)::bigint as medusa_refunded_cents,
            coalesce(sum(c.platform_amount_cents), 0)::bigint as platform_approved_cents,
            sum(c.platform_refunded_cents)::bigint as platform_refunded_cents
       ${checkedIn("c.paid_day")} group by c.paid_day`,
    bindings
  )
  const differences = await rows<Record<string, string | number | null>>(
    container,
    `select o.id as order_id, o.display_id as order_display_id, c.session_id,
            ps.data #>> '{refpay,entity}' as entity, ps.data #>> '{refpay,reference}' as reference,
            to_char(c.paid_day, 'YYYY-MM-DD') as paid_day,
            c.captured_cents as medusa_captured_cents, c.refunded_cents as medusa_refunded_cents,
            c.platform_amount_cents as platform_approved_cents, c.platform_refunded_cents
       from (select c.* ${checkedIn("c.paid_day")} and c.differs
              order by c.paid_at asc, c.session_id asc limit ?) c ${SESSION_AND_ORDER}
      order by c.paid_at asc, c.session_id asc`,
    [...bindings, MAX_DIFFERENCES]
  )
  const byDay = new Map(days.map((row) => [String(row.day), row]))
  const cents = (value: string | number | null | undefined) =>
    value === null || value === undefined ? 0 : Number(value)
  return {
    per_day: daysOf(period).map((day) => {
      const row = byDay.get(day)
      return {
        day,
        medusa_captured_cents: cents(row?.medusa_captured_cents),
        medusa_refunded_cents: cents(row?.medusa_refunded_cents),
        platform_approved_cents: cents(row?.platform_approved_cents),
        platform_refunded_cents: cents(row?.platform_refunded_cents),
      }
    }),
    differences: differences.map((row) => ({
      order_id: (row.order_id as string | null) ?? null,
      order_display_id: row.order_display_id === null ? null : Number(row.order_display_id),
      session_id: String(row.session_id),
      entity: String(row.entity ?? ""),
      reference: String(row.reference ?? ""),
      paid_day: String(row.paid_day),
      medusa_captured_cents: cents(row.medusa_captured_cents),
      medusa_refunded_cents: cents(row.medusa_refunded_cents),
      platform_approved_cents: row.platform_approved_cents === null ? null : Number(row.platform_approved_cents),
      platform_refunded_cents: cents(row.platform_refunded_cents),
    })),
  }
}

/** The most rows one CSV export holds; a longer period is exported in parts (the route says so). */
export const MAX_EXPORT_ROWS = 100_000

/** The references issued in the period, oldest first, with their order and both sides' amounts and statuses. */
export async function periodPayments(
  container: MedusaContainer,
  providerId: string,
  period: Period
): Promise<{ rows: PeriodPayment[]; truncated: boolean }> {
  const found = await rows<Record<string, string | number | Date | null>>(
    container,
    `select o.id as order_id, o.display_id as order_display_id,
            ps.data #>> '{refpay,entity}' as entity, ps.data #>> '{refpay,reference}' as reference,
            ${AMOUNT_CENTS} as amount_cents, c.captured_cents, c.refunded_cents,
            ps.data #>> '{refpay,status}' as platform_status, c.platform_amount_cents, c.platform_refunded_cents,
            c.session_status, c.expired_at is not null as expired, c.issued_at, c.paid_at
       from (select c.* ${checkedIn("c.issued_day")} order by c.issued_at asc, c.session_id asc limit ?) c
       ${SESSION_AND_ORDER}
      order by c.issued_at asc, c.session_id asc`,
    [providerId, period.from, period.to, MAX_EXPORT_ROWS + 1]
  )
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string))
  const list = found.slice(0, MAX_EXPORT_ROWS).map((row): PeriodPayment => ({
    order_id: (row.order_id as string | null) ?? null,
    order_display_id: row.order_display_id === null ? null : Number(row.order_display_id),
    entity: String(row.entity ?? ""),
    reference: String(row.reference ?? ""),
    amount_cents: Number(row.amount_cents),
    captured_cents: Number(row.captured_cents),
    refunded_cents: Number(row.refunded_cents),
    platform_status: String(row.platform_status ?? ""),
    platform_amount_cents: row.platform_amount_cents === null ? null : Number(row.platform_amount_cents),
    platform_refunded_cents: Number(row.platform_refunded_cents),
    medusa_state: medusaPaymentState({
      session_status: String(row.session_status),
      expired: Boolean(row.expired),
      captured_cents: Number(row.captured_cents),
      refunded_cents: Number(row.refunded_cents),
    }),
    issued_at: date(row.issued_at),
    paid_at: date(row.paid_at),
  }))
  return { rows: list, truncated: found.length > MAX_EXPORT_ROWS }
}

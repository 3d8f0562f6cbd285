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
} from "../rules/owner-numbers"
import { numberAt, PAYMENT_MONEY, PLATFORM_REFUNDED_CENTS, timestampAt } from "./session-queries"

/**
 * The shop owner's numbers for one REFPAY registration and a period of Lisbon days, counted by PostgreSQL over
 * Medusa's payment sessions, payments, captures and refunds and the plugin's check records: no row is loaded to be
 * counted in JavaScript. A renewed reference is a session of its own on the same payment collection (issue-reference),
 * so every reference ever issued is one session; a reference's issue time is the platform's (`data.refpay.created_at`).
 */

/** A REFPAY session of the registration (bound first) with a reference. */
const REFERENCE = `ps.provider_id = ? and ps.deleted_at is null and jsonb_typeof(ps.data->'refpay') = 'object'`

const ISSUED_AT = timestampAt("refpay,created_at")
const EXPIRED_AT = timestampAt("expired_at")
const LATE_AT = timestampAt("paid_after_cancellation_at")
const AMOUNT_CENTS = `coalesce(${numberAt("ps.data", "refpay,amount_cents")}, 0)`

/** Within the period's Lisbon days (two bindings: from, to). */
function inPeriod(instant: string): string {
  return `${instant} >= (?::date)::timestamp at time zone '${SHOP_TIME_ZONE}'
      and ${instant} < (?::date + 1)::timestamp at time zone '${SHOP_TIME_ZONE}'`
}

function lisbonDate(instant: string): string {
  return `(${instant} at time zone '${SHOP_TIME_ZONE}')::date`
}

/** The session's Medusa Payment (if any) and what it holds in cents, from each stored exact amount. */
const PAYMENT = `
  left join payment pay on pay.payment_session_id = ps.id and pay.deleted_at is null${PAYMENT_MONEY}`

/** An expired reference that a later reference of the same payment collection replaced. */
const RENEWED = `${EXPIRED_AT} is not null and exists (
    select 1 from payment_session later
     where later.payment_collection_id = ps.payment_collection_id and later.id <> ps.id and later.deleted_at is null
       and later.provider_id = ps.provider_id and later.created_at > ps.created_at)`

/** Paid on a reference that replaced an expired one of the same payment collection. */
const ON_RENEWED_REFERENCE = `exists (
    select 1 from payment_session earlier
     where earlier.payment_collection_id = ps.payment_collection_id and earlier.id <> ps.id
       and earlier.deleted_at is null and earlier.provider_id = ps.provider_id
       and coalesce(earlier.data->>'expired_at', '') <> '' and earlier.created_at < ps.created_at)`

const PLATFORM_REFUNDED = PLATFORM_REFUNDED_CENTS
/** The amount the platform last reported for the payment, in cents; null when it never said. */
const PLATFORM_AMOUNT = `coalesce(${numberAt("ps.data", "refpay,platform_amount_cents")}, ${numberAt("pay.data", "refpay,platform_amount_cents")})`

function pg(container: MedusaContainer): Knex {
  return container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
}

async function rows<T>(container: MedusaContainer, sql: string, bindings: unknown[]): Promise<T[]> {
  return (await pg(container).raw(sql, bindings as Knex.RawBinding[])).rows as T[]
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
    paid: "pay.captured_at is not null",
    waiting: "ps.status = 'pending_authorization'",
    expired: `${EXPIRED_AT} is not null`,
    renewed: RENEWED,
    cancelled: `ps.status = 'canceled' and ${EXPIRED_AT} is null and pay.captured_at is null`,
  }
  const select = OUTCOMES.map(
    (outcome) =>
      `count(*) filter (where ${conditions[outcome]})::int as ${outcome}_count,
       coalesce(sum(${AMOUNT_CENTS}) filter (where ${conditions[outcome]}), 0)::bigint as ${outcome}_amount`
  ).join(",\n")
  const issuedIn = `from payment_session ps ${PAYMENT} where ${REFERENCE} and ${inPeriod(ISSUED_AT)}`
  const bindings = [providerId, period.from, period.to]
  const [totals] = await rows<Record<string, string | number>>(container, `select ${select} ${issuedIn}`, bindings)
  const issuedPerDay = await rows<{ day: string; count: number }>(
    container,
    `select to_char(${lisbonDate(ISSUED_AT)}, 'YYYY-MM-DD') as day, count(*)::int as count ${issuedIn} group by 1`,
    bindings
  )
  const paidPerDay = await rows<{ day: string; count: number }>(
    container,
    `select to_char(${lisbonDate("pay.captured_at")}, 'YYYY-MM-DD') as day, count(*)::int as count
       from payment_session ps ${PAYMENT} where ${REFERENCE} and ${inPeriod("pay.captured_at")} group by 1`,
    bindings
  )
  const waits = await rows<{ days: number; count: number }>(
    container,
    `select least(${lisbonDate("pay.captured_at")} - ${lisbonDate(ISSUED_AT)}, 7) as days, count(*)::int as count
       ${issuedIn} and pay.captured_at is not null group by 1`,
    bindings
  )
  const of = (outcome: (typeof OUTCOMES)[number]): CountAndAmount => ({
    count: Number(totals?.[`${outcome}_count`] ?? 0),
    amount_cents: Number(totals?.[`${outcome}_amount`] ?? 0),
  })
  const issued = of("issued")
  const paid = of("paid")
  const byDay = (list: { day: string; count: number }[]) => new Map(list.map((row) => [row.day, Number(row.count)]))
  const issuedOn = byDay(issuedPerDay)
  const paidOn = byDay(paidPerDay)
  const buckets = new Map<TimeToPayBucket, number>()
  for (const row of waits) {
    const bucket = timeToPayBucket(Number(row.days))
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + Number(row.count))
  }
  return {
    issued,
    paid,
    waiting: of("waiting"),
    expired: of("expired"),
    renewed: of("renewed"),
    cancelled: of("cancelled"),
    paid_share: issued.count === 0 ? 0 : Math.round((paid.count / issued.count) * 10_000) / 10_000,
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
    `select count(*) filter (where c.reminded_at is not null and c.reminded_at < pay.captured_at)::int as reminded_count,
            coalesce(sum(money.captured_cents) filter (where c.reminded_at is not null and c.reminded_at < pay.captured_at), 0)::bigint as reminded_amount,
            count(*) filter (where ${ON_RENEWED_REFERENCE})::int as renewed_count,
            coalesce(sum(money.captured_cents) filter (where ${ON_RENEWED_REFERENCE}), 0)::bigint as renewed_amount
       from payment_session ps ${PAYMENT}
       left join refpay_payment_check c on c.session_id = ps.id and c.deleted_at is null
      where ${REFERENCE} and ${inPeriod("pay.captured_at")}`,
    [providerId, period.from, period.to]
  )
  const refundedBack = "money.captured_cents > 0 and money.refunded_cents >= money.captured_cents"
  const [late] = await rows<Record<string, string | number>>(
    container,
    `select count(*) filter (where ${refundedBack})::int as refunded_count,
            coalesce(sum(money.refunded_cents) filter (where ${refundedBack}), 0)::bigint as refunded_amount,
            count(*) filter (where not (${refundedBack}))::int as recorded_count,
            coalesce(sum(money.captured_cents - money.refunded_cents) filter (where not (${refundedBack})), 0)::bigint as recorded_amount
       from payment_session ps ${PAYMENT}
      where ${REFERENCE} and ${inPeriod(LATE_AT)}`,
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

const ORDER = `
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
  const paidIn = `from payment_session ps ${PAYMENT} where ${REFERENCE} and ${inPeriod("pay.captured_at")}`
  const bindings = [providerId, period.from, period.to]
  const days = await rows<Record<string, string | number>>(
    container,
    `select to_char(${lisbonDate("pay.captured_at")}, 'YYYY-MM-DD') as day,
            sum(money.captured_cents)::bigint as medusa_captured_cents,
            sum(money.refunded_cents)::bigint as medusa_refunded_cents,
            coalesce(sum(${PLATFORM_AMOUNT}), 0)::bigint as platform_approved_cents,
            sum(${PLATFORM_REFUNDED})::bigint as platform_refunded_cents
       ${paidIn} group by 1`,
    bindings
  )
  const differences = await rows<Record<string, string | number | null>>(
    container,
    `select o.id as order_id, o.display_id as order_display_id, ps.id as session_id,
            ps.data #>> '{refpay,entity}' as entity, ps.data #>> '{refpay,reference}' as reference,
            to_char(${lisbonDate("pay.captured_at")}, 'YYYY-MM-DD') as paid_day,
            money.captured_cents as medusa_captured_cents, money.refunded_cents as medusa_refunded_cents,
            ${PLATFORM_AMOUNT} as platform_approved_cents, ${PLATFORM_REFUNDED} as platform_refunded_cents
       from payment_session ps ${PAYMENT} ${ORDER}
      where ${REFERENCE} and ${inPeriod("pay.captured_at")}
        and (${PLATFORM_AMOUNT} is distinct from money.captured_cents or ${PLATFORM_REFUNDED} <> money.refunded_cents)
      order by pay.captured_at asc, ps.id asc
      limit ?`,
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
            ${AMOUNT_CENTS} as amount_cents, money.captured_cents, money.refunded_cents,
            ps.data #>> '{refpay,status}' as platform_status, ${PLATFORM_AMOUNT} as platform_amount_cents,
            ${PLATFORM_REFUNDED} as platform_refunded_cents, ps.status as session_status,
            ${EXPIRED_AT} is not null as expired, ${ISSUED_AT} as issued_at, pay.captured_at as paid_at
       from payment_session ps ${PAYMENT} ${ORDER}
      where ${REFERENCE} and ${inPeriod(ISSUED_AT)}
      order by ${ISSUED_AT} asc, ps.id asc
      limit ?`,
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

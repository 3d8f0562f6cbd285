import type { MedusaContainer } from "@medusajs/framework/types"
import { daysOf, type Period } from "../../rules/owner-numbers"
import { checkedIn, rows, SESSION_AND_ORDER } from "./owner-numbers-sql"

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

/**
 * Per Lisbon day of payment in the period: what Medusa captured and refunded for the account's REFPAY payments
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

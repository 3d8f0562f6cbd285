import type { MedusaContainer } from "@medusajs/framework/types"
import { medusaPaymentState, type Period, type PeriodPayment } from "../../rules/owner-numbers"
import { AMOUNT_CENTS, checkedIn, rows, SESSION_AND_ORDER } from "./owner-numbers-sql"

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

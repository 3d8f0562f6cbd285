import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { SHOP_TIME_ZONE } from "../../rules/owner-numbers"

/**
 * The shop owner's numbers for one REFPAY account and a period of Lisbon days, counted by PostgreSQL: no row is
 * loaded to be counted in JavaScript. A renewed reference is a session of its own on the same payment collection
 * (issue-reference), so every reference ever issued is one session; its issue time is the platform's.
 *
 * They read the poll job's check records alone (`c`), through their indexes on the account and the Lisbon day
 * of issue or payment (or the late-payment time): each check carries a copy of what its reference counts by
 * (session status, capture, Medusa's captured and refunded cents, the platform's amounts;
 * medusa-compat/medusa-tables/reference-copies.ts), refreshed after every check and every Medusa capture or refund. Joining every session, payment, capture and refund of a period
 * instead takes seconds at 100,000 references. A reference is counted once the job checks it (at most one run
 * after its order). Orders are joined only for the differences listed and the rows exported (SESSION_AND_ORDER).
 *
 * The numbers themselves: owner-numbers.ts (conversion, recovered), reconciliation.ts, period-payments.ts (export).
 */

/**
 * The account's (bound first) checks whose Lisbon day of issue or payment, or instant of a late payment, is
 * within the period (bound next: from, to); each through its index.
 */
export function checkedIn(when: "c.issued_day" | "c.paid_day" | "c.late_at"): string {
  const within = when === "c.late_at" ? inPeriod(when) : `${when} between ?::date and ?::date`
  return `from refpay_payment_check c where c.provider_id = ? and c.deleted_at is null and ${within}`
}

export const AMOUNT_CENTS = `coalesce(c.amount_cents, 0)`

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
export async function rows<T>(container: MedusaContainer, sql: string, bindings: unknown[]): Promise<T[]> {
  return pg(container).transaction(async (trx) => {
    await trx.raw("set local max_parallel_workers_per_gather = 0")
    return (await trx.raw(sql, bindings as Knex.RawBinding[])).rows as T[]
  })
}

/** The check's session (its entity and reference) and order. */
export const SESSION_AND_ORDER = `
  join payment_session ps on ps.id = c.session_id
  left join order_payment_collection opc on opc.payment_collection_id = ps.payment_collection_id and opc.deleted_at is null
  left join "order" o on o.id = opc.order_id`

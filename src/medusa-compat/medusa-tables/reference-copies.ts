import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { isDeadlock } from "../database-errors"
import { numberAt, PAYMENT_MONEY, PLATFORM_REFUNDED_CENTS, timestampAt } from "./sql-fragments"
import { SHOP_TIME_ZONE } from "../../rules/owner-numbers"

/** The amount the platform last reported for the payment, in cents; null when it never said. */
const PLATFORM_AMOUNT = `coalesce(${numberAt("ps.data", "refpay,platform_amount_cents")}, ${numberAt("pay.data", "refpay,platform_amount_cents")})`

/**
 * What the owner's numbers count a reference by, as its session and Medusa payment say it, copied onto its payment
 * check (RefpayPaymentCheck) so that a period's numbers read one narrow table through its indexes instead of
 * joining every session, payment, capture and refund of the period (seconds at 100,000 references, not
 * milliseconds). The copy is made by one statement, `referenceCopiesUpdate` (run by `refreshReferenceCopies` and the migrations that
 * fill the columns), and nothing else writes these columns.
 */
export const REFERENCE_COPIES = {
  /** The platform's issue time of the reference, and its day in the shop's time zone (a period is of such days). */
  issued_at: timestampAt("refpay,created_at"),
  issued_day: `(${timestampAt("refpay,created_at")} at time zone '${SHOP_TIME_ZONE}')::date`,
  amount_cents: `${numberAt("ps.data", "refpay,amount_cents")}::integer`,
  session_status: "ps.status",
  /** When the plugin expired the reference (its renewal or the order's cancellation followed). */
  expired_at: timestampAt("expired_at"),
  /** Medusa's capture of its payment, and its day in the shop's time zone. */
  paid_at: "pay.captured_at",
  paid_day: `(pay.captured_at at time zone '${SHOP_TIME_ZONE}')::date`,
  /** When a payment that arrived after its order's cancellation was flagged. */
  late_at: timestampAt("paid_after_cancellation_at"),
  /**
   * An expired reference that a later reference of the same payment collection replaced. Looked for only when it
   * expired (and "on a renewed reference" only when it was paid): a collection's other sessions are read for the
   * few references that need them, never for every one of a collection that holds thousands.
   */
  renewed: `case when ${timestampAt("expired_at")} is not null then exists (
    select 1 from payment_session later
     where later.payment_collection_id = ps.payment_collection_id and later.id <> ps.id and later.deleted_at is null
       and later.provider_id = ps.provider_id and later.created_at > ps.created_at) else false end`,
  /** A paid reference that replaced an expired one of the same payment collection. */
  on_renewed_reference: `case when pay.captured_at is not null then exists (
    select 1 from payment_session earlier
     where earlier.payment_collection_id = ps.payment_collection_id and earlier.id <> ps.id
       and earlier.deleted_at is null and earlier.provider_id = ps.provider_id
       and coalesce(earlier.data->>'expired_at', '') <> '' and earlier.created_at < ps.created_at) else false end`,
  /** Its payment collection: a renewal there changes what the collection's expired references count as. */
  payment_collection_id: "ps.payment_collection_id",
  captured_cents: "money.captured_cents",
  refunded_cents: "money.refunded_cents",
  platform_amount_cents: `${PLATFORM_AMOUNT}::integer`,
  platform_refunded_cents: `${PLATFORM_REFUNDED_CENTS}::integer`,
  /** Medusa's captured or refunded cents differ from the platform's: the reconciliation lists it. */
  differs: `(${PLATFORM_AMOUNT} is distinct from money.captured_cents or ${PLATFORM_REFUNDED_CENTS} <> money.refunded_cents)`,
  /**
   * Not counted by the numbers: the plugin's own copy of the reference and its order, kept so that a late payment of a
   * reference whose session Medusa deletes is still found, flagged and refunded (workflows/refpay-sync/deleted-session.ts).
   */
  reference: "ps.data -> 'refpay'",
  order_id: `(select opc.order_id from order_payment_collection opc
     where opc.payment_collection_id = ps.payment_collection_id and opc.deleted_at is null limit 1)`,
} as const

export type ReferenceCopy = keyof typeof REFERENCE_COPIES

/**
 * Copies the reference copies onto the checks of the sessions matching `sessions` (a condition on `ps`, payment_session): one
 * UPDATE. `without`: copies a migration written before their columns existed leaves out.
 */
export function referenceCopiesUpdate(sessions: string, without: readonly ReferenceCopy[] = []): string {
  const columns = (Object.keys(REFERENCE_COPIES) as ReferenceCopy[]).filter((column) => !without.includes(column))
  return `update "refpay_payment_check" c
     set ${columns.map((column) => `"${column}" = f."${column}"`).join(", ")}
    from (select ps.id as session_id, ${columns.map((column) => `${REFERENCE_COPIES[column]} as "${column}"`).join(",\n")}
            from payment_session ps
            left join payment pay on pay.payment_session_id = ps.id and pay.deleted_at is null${PAYMENT_MONEY}
           where ps.deleted_at is null and (${sessions})) f
   where c.session_id = f.session_id and c.deleted_at is null`
}

/**
 * The sessions whose ids are the JSON array bound to `?` (twice), and the expired references of their payment
 * collections, whose "renewed" a new reference there changes: found through the checks' own copies (indexed), so a
 * collection's other sessions are not read.
 */
export const SESSIONS_AND_EXPIRED_SIBLINGS = `ps.id in (
  select jsonb_array_elements_text(?::jsonb)
  union
  select l.session_id from refpay_payment_check l
   where l.expired_at is not null and l.deleted_at is null
     and l.payment_collection_id in (
       select s.payment_collection_id from payment_session s where s.id in (select jsonb_array_elements_text(?::jsonb))))`

/**
 * Copies onto the sessions' checks what the owner's numbers select by (issue time, amount, capture, late flag), as
 * their sessions and payments say now: one statement, after every check recorded, so a capture or a late payment is
 * counted from the check that follows it (a sync records its check after acting).
 */
export async function refreshReferenceCopies(container: MedusaContainer, sessionIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return
  const pg = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const ids = JSON.stringify(sessionIds)
  // Two refreshes of one collection's checks (a renewal's two sessions synced at once) lock its rows in no set
  // order; PostgreSQL breaks such a deadlock by failing one, which then runs again (it is the same copy).
  for (let attempt = 1; ; attempt++) {
    try {
      return void (await pg.raw(referenceCopiesUpdate(SESSIONS_AND_EXPIRED_SIBLINGS), [ids, ids]))
    } catch (error) {
      if (attempt === 3 || !isDeadlock(error)) throw error
    }
  }
}

import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { WAITING_OUTCOMES } from "../../rules/check-schedule"
import { PAYMENT_MONEY, PLATFORM_REFUNDED_CENTS, timestampAt } from "./sql-fragments"

/**
 * The admin page's lookups inside REFPAY payment sessions' data (`payment_session.data.refpay`), done by
 * PostgreSQL rather than by loading every session: Medusa 2.21's query graph and the payment module's list
 * methods filter on columns, not on paths inside the `data` JSONB column, so these read `payment_session` through
 * the app's PostgreSQL connection (`ContainerRegistrationKeys.PG_CONNECTION`, the knex instance Medusa shares).
 * They only ever return session ids (one page at a time) or counts; everything shown is then loaded through Medusa's
 * query graph, a page at a time.
 *
 * Values inside `data` are strings exactly as the platform returned them: compared as text, never as numbers, so
 * a reference's leading zeros matter.
 */

/** REFPAY sessions: every provider id `pp_refpay_<id>`, whatever id the shop registered the provider under. */
const REFPAY_SESSION = `starts_with(ps.provider_id, 'pp_refpay_') and ps.deleted_at is null and jsonb_typeof(ps.data->'refpay') = 'object'`

function pg(container: MedusaContainer): Knex {
  return container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
}

async function ids(container: MedusaContainer, sql: string, bindings: readonly unknown[]): Promise<string[]> {
  const result = await pg(container).raw(sql, bindings as Knex.RawBinding[])
  return (result.rows as { id: string }[]).map((row) => row.id)
}

/** A reference is shown to one customer; a few sessions at most share it (its entity differs, or it was reused). */
export const MAX_REFERENCE_MATCHES = 200

/**
 * Sessions whose reference (and entity, when given) is exactly the one asked for, newest first. Every reference a
 * session ever showed is its `data.refpay` (a renewed reference is a new session), so old ones are found too.
 */
export function findSessionsByReference(
  container: MedusaContainer,
  query: { reference: string; entity?: string }
): Promise<string[]> {
  const references = [...new Set([query.reference, query.reference.replace(/\s+/g, "")])]
  const entity =
    query.entity === undefined
      ? ""
      : ` and ps.data->'refpay'->>'entity' in (${placeholders(entityVariants(query.entity))})`
  return ids(
    container,
    `select ps.id from payment_session ps
      where ${REFPAY_SESSION}
        and ps.data->'refpay'->>'reference' in (${placeholders(references)})${entity}
      order by ps.created_at desc, ps.id desc
      limit ?`,
    [...references, ...(query.entity === undefined ? [] : entityVariants(query.entity)), MAX_REFERENCE_MATCHES]
  )
}

function entityVariants(entity: string): string[] {
  return [...new Set([entity, entity.replace(/\s+/g, "")])]
}

function placeholders(values: unknown[]): string {
  return values.map(() => "?").join(", ")
}

/**
 * A set of REFPAY sessions the admin page lists, as SQL: a condition on `ps` (the session) and, when `withPayment`,
 * on `pay` (its Medusa Payment) and `money` (that payment's captured and refunded cents), with a stable order for
 * paging. Counted and paged by PostgreSQL: no query's rows or bindings grow with the number of sessions.
 */
export interface SessionSelection {
  withPayment: boolean
  /**
   * Read from the poll job's check records alone (`c`), whose indexed columns answer it: no session's row or data is
   * read. The job only checks sessions with a REFPAY reference.
   */
  fromChecks?: boolean
  where: string
  bindings: readonly unknown[]
  order: string
}

const WITH_PAYMENT = `
  join payment pay on pay.payment_session_id = ps.id and pay.deleted_at is null${PAYMENT_MONEY}`

function fromWhere(selection: SessionSelection): string {
  if (selection.fromChecks)
    return `from refpay_payment_check c where c.deleted_at is null and c.check_until is not null and (${selection.where})`
  return `from payment_session ps${selection.withPayment ? WITH_PAYMENT : ""}
      where ${REFPAY_SESSION} and (${selection.where})`
}

/** How many sessions the selection holds: one COUNT(*) row. */
export async function countSessions(container: MedusaContainer, selection: SessionSelection): Promise<number> {
  const result = await pg(container).raw(
    `select count(*)::int as count ${fromWhere(selection)}`,
    selection.bindings as Knex.RawBinding[]
  )
  return Number((result.rows as { count: number }[])[0]?.count ?? 0)
}

/** One page of the selection's session ids, in its order. */
export function pageSessions(
  container: MedusaContainer,
  selection: SessionSelection,
  page: { limit: number; offset: number }
): Promise<string[]> {
  const id = selection.fromChecks ? "c.session_id" : "ps.id"
  return ids(container, `select ${id} as id ${fromWhere(selection)} order by ${selection.order} limit ? offset ?`, [
    ...selection.bindings,
    page.limit,
    page.offset,
  ])
}

/**
 * Waiting references whose validity ends after `from`, up to `to`; soonest first. Read from the poll job's check
 * records (indexed on `expires_at`): the validity its last check recorded, and that check's outcome leaving the
 * reference waiting (WAITING_OUTCOMES; every path that changes a payment records its check). A reference is listed
 * once the job checks it, at most one run after its order; one whose order was cancelled drops out once its
 * cancellation on the platform is recorded.
 */
export function expiringBetween(from: Date, to: Date): SessionSelection {
  return {
    withPayment: false,
    fromChecks: true,
    where: `c.expires_at > ? and c.expires_at <= ? and (c.last_outcome is null or c.last_outcome in (${placeholders([...WAITING_OUTCOMES])}))`,
    bindings: [from, to, ...WAITING_OUTCOMES],
    order: `c.expires_at asc, c.session_id asc`,
  }
}

/** Sessions flagged as paid after their order was cancelled whose payment still holds money; newest flag first. */
export const PAID_AFTER_CANCELLATION_HELD: SessionSelection = {
  withPayment: true,
  where: `coalesce(ps.data->>'paid_after_cancellation_at', '') <> '' and money.captured_cents > money.refunded_cents`,
  bindings: [],
  order: `ps.data->>'paid_after_cancellation_at' desc, ps.id desc`,
}

/**
 * Captured payments whose refunded total in Medusa (its Refund records) differs, either way, from the platform's as
 * last read; newest payment first.
 */
export const REFUND_MISMATCH: SessionSelection = {
  withPayment: true,
  where: `money.captured_cents > 0 and money.refunded_cents <> ${PLATFORM_REFUNDED_CENTS}`,
  bindings: [],
  order: `pay.created_at desc, ps.id desc`,
}

/** How many references (of one account, when given) wait for the customer, and when the oldest was issued. */
export async function waitingReferences(
  container: MedusaContainer,
  providerId?: string
): Promise<{ count: number; oldest_created_at: Date | null }> {
  const created = timestampAt("refpay,created_at")
  const result = await pg(container).raw(
    `select count(*)::int as count, min(${created}) as oldest
       from payment_session ps
      where ${REFPAY_SESSION} and ps.status = 'pending_authorization'${providerId ? " and ps.provider_id = ?" : ""}`,
    providerId ? [providerId] : []
  )
  const row = result.rows[0] as { count: number; oldest: string | Date | null }
  return { count: Number(row?.count ?? 0), oldest_created_at: row?.oldest ? new Date(row.oldest) : null }
}

/**
 * The sessions of an order's REFPAY references that Medusa deleted: their checks keep the reference and the order
 * (refpay_payment_check.reference, order_id), and no session has their id any more. Oldest first.
 */
export async function deletedSessionIdsOfOrder(container: MedusaContainer, orderId: string): Promise<string[]> {
  return ids(
    container,
    `select c.session_id as id from refpay_payment_check c
      where c.order_id = ? and c.reference is not null and c.deleted_at is null
        and not exists (select 1 from payment_session ps where ps.id = c.session_id and ps.deleted_at is null)
      order by c.created_at`,
    [orderId]
  )
}

export interface UncheckedSession {
  id: string
  provider_id: string
  updated_at: string | Date
  expires_at: string | null
}

/**
 * The account's `pending_authorization` sessions with no check record, after the id `after`, in id order. Read
 * with SQL on the app's PostgreSQL connection (the plugin's `refpay_payment_check` beside Medusa's
 * `payment_session`), since the query graph cannot ask for rows another module has none of.
 */
export async function uncheckedSessions(
  container: MedusaContainer,
  providerId: string,
  after: string,
  limit: number
): Promise<UncheckedSession[]> {
  const result = await pg(container).raw(
    `select ps.id, ps.provider_id, ps.updated_at, ps.data #>> '{refpay,expires_at}' as expires_at from payment_session ps
      where ps.provider_id = ? and ps.status = 'pending_authorization' and ps.deleted_at is null and ps.id > ?
        and not exists (select 1 from refpay_payment_check c where c.session_id = ps.id and c.deleted_at is null)
      order by ps.id asc
      limit ?`,
    [providerId, after, limit]
  )
  return result.rows
}

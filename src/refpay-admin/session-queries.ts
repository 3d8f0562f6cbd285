import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"

/**
 * The admin page's lookups inside REFPAY payment sessions' data (`payment_session.data.refpay`), done by
 * PostgreSQL rather than by loading every session: Medusa 2.21's query graph and the payment module's list
 * methods filter on columns, not on paths inside the `data` JSONB column, so these read `payment_session` through
 * the app's PostgreSQL connection (`ContainerRegistrationKeys.PG_CONNECTION`, the knex instance Medusa shares).
 * They only ever return session ids; everything shown is then loaded through Medusa's query graph.
 *
 * Values inside `data` are strings exactly as the platform returned them: compared as text, never as numbers, so
 * a reference's leading zeros matter.
 */

/** REFPAY sessions: every provider id `pp_refpay_<id>`, whatever id the shop registered the provider under. */
const REFPAY_SESSION = `starts_with(ps.provider_id, 'pp_refpay_') and ps.deleted_at is null and jsonb_typeof(ps.data->'refpay') = 'object'`

/** An ISO 8601 timestamp inside `data`, as timestamptz; null when the text is not one (never a cast error). */
function timestampAt(path: string): string {
  const text = `(ps.data #>> '{${path}}')`
  // No "?" in the pattern: knex would take it for a binding.
  return `(case when ${text} ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+){0,1}){0,1}(Z|[+-]\\d{2}(:{0,1}\\d{2}){0,1})$' then ${text}::timestamptz end)`
}

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
export function findSessionsByReference(container: MedusaContainer, query: { reference: string; entity?: string }): Promise<string[]> {
  const references = [...new Set([query.reference, query.reference.replace(/\s+/g, "")])]
  const entity = query.entity === undefined ? "" : ` and ps.data->'refpay'->>'entity' in (${placeholders(entityVariants(query.entity))})`
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

/** Waiting references (session still pending authorisation) whose validity ends between `from` and `to`. */
export function findSessionsExpiringBetween(container: MedusaContainer, from: Date, to: Date): Promise<string[]> {
  const expires = timestampAt("refpay,expires_at")
  return ids(
    container,
    `select ps.id from payment_session ps
      where ${REFPAY_SESSION}
        and ps.status = 'pending_authorization'
        and ${expires} > ? and ${expires} <= ?
      order by ${expires} asc, ps.id asc`,
    [from, to]
  )
}

/** Sessions flagged as paid after their order was cancelled (whether refunded since or not), newest flag first. */
export function findSessionsPaidAfterCancellation(container: MedusaContainer): Promise<string[]> {
  return ids(
    container,
    `select ps.id from payment_session ps
      where ${REFPAY_SESSION}
        and coalesce(ps.data->>'paid_after_cancellation_at', '') <> ''
      order by ps.data->>'paid_after_cancellation_at' desc, ps.id desc`,
    []
  )
}

/** How many references (of one registration, when given) wait for the customer, and when the oldest was issued. */
export async function waitingReferences(container: MedusaContainer, providerId?: string): Promise<{ count: number; oldest_created_at: Date | null }> {
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

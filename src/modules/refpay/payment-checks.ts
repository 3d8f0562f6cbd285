import type { EntityManager } from "@medusajs/framework/mikro-orm/knex"
import { isUniqueViolation } from "../../medusa-compat/database-errors"
import type RefpayModuleService from "./service"

/**
 * The poll job's record of each session (`refpay_payment_check`): recording a check, the alert it announced, whether
 * it is still checked, and the plugin's own copy of a reference for when Medusa deleted its session.
 */

/** One check of a session, as the sync records it (see RefpayPaymentCheck). */
export interface CheckRecord {
  session_id: string
  provider_id: string
  checked_at: Date
  outcome: string
  error?: string | null
  /** Whether the check itself failed (platform unreachable, payment unknown): the backoff grows. */
  failed: boolean
  next_check_at: Date
  check_until: Date | null
  /** The reference's validity as this check knows it. */
  expires_at: Date | null
  /** The reminder e-mail of the reference was sent by this check. */
  reminded?: boolean
}

export interface PaymentCheck {
  id: string
  session_id: string
  provider_id: string
  check_until: Date | null
  next_check_at: Date
  last_checked_at: Date | null
  last_outcome: string | null
  last_error: string | null
  failures: number
  last_alert: string | null
  reminded_at: Date | null
  expires_at: Date | null
  /** Copies for the owner's numbers: see medusa-compat/medusa-tables/reference-copies.ts. */
  issued_at: Date | null
  amount_cents: number | null
  session_status: string | null
  expired_at: Date | null
  paid_at: Date | null
  late_at: Date | null
  renewed: boolean
  on_renewed_reference: boolean
  captured_cents: number
  refunded_cents: number
  platform_amount_cents: number | null
  platform_refunded_cents: number
  differs: boolean
  payment_collection_id: string | null
  /** The plugin's copy of the reference (the session's `data.refpay`) and its order: see the model. */
  reference: Record<string, unknown> | null
  order_id: string | null
}

/** A session the poll job starts checking. */
export interface NewPaymentCheck {
  session_id: string
  provider_id: string
  next_check_at: Date
  check_until: Date
  expires_at?: Date | null
}

type CheckStore = Pick<
  RefpayModuleService,
  "listRefpayPaymentChecks" | "createRefpayPaymentChecks" | "updateRefpayPaymentChecks"
>

export async function getPaymentCheck(store: CheckStore, sessionId: string): Promise<PaymentCheck | undefined> {
  const [check] = await store.listRefpayPaymentChecks({ session_id: sessionId }, { take: 1 })
  return check as PaymentCheck | undefined
}

/**
 * Records a check: outcome, backoff counter, when it is next due and until when it is checked. `previous`: the
 * session's check as the caller has just read it (null: none yet), so it is not read twice; an existing check is
 * written by one statement (`writeCheck`).
 */
export async function recordPaymentCheck(
  store: CheckStore,
  manager: EntityManager,
  record: CheckRecord,
  previous?: PaymentCheck | null
): Promise<void> {
  const existing = previous === undefined ? await getPaymentCheck(store, record.session_id) : previous
  if (existing && (await writeCheck(manager, existing.id, record))) return
  const fields = {
    provider_id: record.provider_id,
    last_checked_at: record.checked_at,
    last_outcome: record.outcome,
    last_error: record.error ?? null,
    failures: record.failed ? 1 : 0,
    next_check_at: record.next_check_at,
    check_until: record.check_until,
    expires_at: record.expires_at,
    ...(record.reminded ? { reminded_at: record.checked_at } : {}),
  }
  try {
    await store.createRefpayPaymentChecks({ session_id: record.session_id, ...fields })
  } catch (error) {
    // Another process created it first: this check updates that row instead.
    const raced = await getPaymentCheck(store, record.session_id)
    if (!raced || !(await writeCheck(manager, raced.id, record))) throw error
  }
}

/**
 * Writes a check onto the session's existing row in one statement (no read first, no transaction of its own): a
 * failed check counts one more failure, a successful one resets the count. False when the row is gone.
 */
async function writeCheck(manager: EntityManager, id: string, record: CheckRecord): Promise<boolean> {
  const written: unknown[] = await manager.getConnection().execute(
    `update "refpay_payment_check"
        set "provider_id" = ?, "last_checked_at" = ?, "last_outcome" = ?, "last_error" = ?,
            "failures" = case when ?::boolean then "failures" + 1 else 0 end,
            "next_check_at" = ?, "check_until" = ?, "expires_at" = ?,
            "reminded_at" = case when ?::boolean then ?::timestamptz else "reminded_at" end, "updated_at" = now()
      where "id" = ? and "deleted_at" is null
      returning "id"`,
    [
      record.provider_id,
      record.checked_at,
      record.outcome,
      record.error ?? null,
      record.failed,
      record.next_check_at,
      record.check_until,
      record.expires_at,
      !!record.reminded,
      record.checked_at,
      id,
    ]
  )
  return written.length > 0
}

/** The plugin's own record of a reference (its check with `reference`), for when Medusa deleted its session. */
export async function keptReference(store: CheckStore, sessionId: string): Promise<PaymentCheck | undefined> {
  const check = await getPaymentCheck(store, sessionId)
  return check?.reference ? check : undefined
}

/** Remembers an announced alert; true when it is new (announce it), false when it was already announced. */
export async function claimAlert(store: CheckStore, sessionId: string, alert: string): Promise<boolean> {
  const check = await getPaymentCheck(store, sessionId)
  if (!check || check.last_alert === alert) return check ? false : true
  await store.updateRefpayPaymentChecks({ id: check.id, last_alert: alert })
  return true
}

/** The session is gone or not REFPAY's: the poll job stops looking at it. */
export async function stopWatching(store: CheckStore, sessionId: string): Promise<void> {
  const check = await getPaymentCheck(store, sessionId)
  if (check?.check_until) await store.updateRefpayPaymentChecks({ id: check.id, check_until: null })
}

/**
 * Starts checking sessions the poll job has not seen yet (created by checkout, before any check); returns the ids
 * of the checks it created, whose copies of the reference the caller then fills (refreshReferenceCopies).
 */
export async function addPaymentChecks(store: CheckStore, rows: NewPaymentCheck[]): Promise<string[]> {
  if (rows.length === 0) return []
  const known = new Set(
    (
      await store.listRefpayPaymentChecks({ session_id: rows.map((r) => r.session_id) }, { select: ["session_id"] })
    ).map((c) => c.session_id)
  )
  const fresh = rows.filter((r) => !known.has(r.session_id))
  if (fresh.length === 0) return []
  const created = await store.createRefpayPaymentChecks(fresh).catch((error: unknown) => {
    // A concurrent poll run inserted some of these first; the rest are picked up by the next run. Anything else is a
    // real failure and must surface.
    if (!isUniqueViolation(error)) throw error
    return []
  })
  return created.map((check) => check.session_id)
}

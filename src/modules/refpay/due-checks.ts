import type { EntityManager } from "@medusajs/framework/mikro-orm/knex"

/**
 * The poll run's statements over many checks at once: recording a page of unchanged checks, and taking a page of
 * due checks for another process. One statement each, however large the page.
 */

/** An unchanged check of a poll run, recorded with the others of its page in one statement. */
export interface UnchangedCheck {
  session_id: string
  /** What the sync would have recorded: `record_check` (still waiting) or `none` (cancelled on both sides). */
  outcome: string
  check_until: Date | null
  expires_at: Date | null
  /** The row's last_checked_at when the run read it: a row another check has recorded since is left alone. */
  last_checked_at: Date | null
}

/** A due check taken by a poll run for a page it hands to the event bus. */
export interface TakenCheck {
  session_id: string
  last_checked_at: Date | null
  reminded_at: Date | null
}

/**
 * Records the unchanged checks of a poll run's page in one statement: each row's outcome, no failure, next
 * due at `nextCheckAt`. A row whose last_checked_at moved since the run read it (a webhook's or the admin's sync
 * recorded a newer check meanwhile) is left as that check wrote it. Returns the session ids recorded.
 */
export async function recordUnchangedChecks(
  manager: EntityManager,
  rows: UnchangedCheck[],
  checkedAt: Date,
  nextCheckAt: Date
): Promise<string[]> {
  if (rows.length === 0) return []
  const recorded: { session_id: string }[] = await manager.getConnection().execute(
    `update "refpay_payment_check" c
        set "last_checked_at" = ?, "last_outcome" = u."outcome", "last_error" = null, "failures" = 0,
            "next_check_at" = ?, "check_until" = u."check_until", "expires_at" = u."expires_at", "updated_at" = now()
       from jsonb_to_recordset(?::jsonb) as u("session_id" text, "outcome" text, "check_until" timestamptz, "expires_at" timestamptz, "seen" timestamptz)
      where c."session_id" = u."session_id" and c."deleted_at" is null
        and c."last_checked_at" is not distinct from u."seen"
      returning c."session_id"`,
    [
      checkedAt,
      nextCheckAt,
      JSON.stringify(
        rows.map((r) => ({
          session_id: r.session_id,
          outcome: r.outcome,
          check_until: r.check_until,
          expires_at: r.expires_at,
          seen: r.last_checked_at,
        }))
      ),
    ]
  )
  return recorded.map((row) => row.session_id)
}

/**
 * Takes up to `take` due checks of an account, oldest due first, for a page a run hands to another process:
 * their next check moves to `until`, so no run reads them again meanwhile, and a page whose process dies is due
 * again then. One statement; rows another run is taking are skipped rather than waited for.
 */
export async function takeDueChecks(
  manager: EntityManager,
  page: { providerId: string; now: Date; until: Date; take: number }
): Promise<TakenCheck[]> {
  return await manager.getConnection().execute(
    `update "refpay_payment_check" c set "next_check_at" = ?, "updated_at" = now()
      where c."id" in (
        select "id" from "refpay_payment_check"
         where "provider_id" = ? and "deleted_at" is null and "check_until" > ? and "next_check_at" <= ?
         order by "next_check_at" asc, "session_id" asc
         limit ? for update skip locked)
      returning c."session_id", c."last_checked_at", c."reminded_at"`,
    [page.until, page.providerId, page.now, page.now, page.take]
  )
}

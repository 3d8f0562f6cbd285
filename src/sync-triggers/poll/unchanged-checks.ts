import type { MedusaContainer } from "@medusajs/framework/types"
import { REFPAY_MODULE, type RefpayModuleService, type UnchangedCheck } from "../../modules/refpay"
import { refpayProviderFor } from "../../providers/refpay/refpay-providers"
import { loadRefpaySessions } from "../../queries/refpay-session-state"
import { nextCheckAt, validDate } from "../../rules/check-schedule"
import { onlyRecordsCheck } from "../../workflows/refpay-sync/branches"
import { reminderOf } from "../../workflows/refpay-sync/steps/notify-customer"
import { judgeSnapshot, readPlatform } from "../../workflows/refpay-sync/steps/read-refpay-payment"
import { expiresAtOf, checkUntilOf } from "../../workflows/refpay-sync/steps/record-check"
import { eachLimited } from "./each-limited"
import type { SyncResult } from "../sync-payment"

/** Platform status reads in flight at once in a poll run: each is about a millisecond of the platform's time. */
export const PARALLEL_READS = 16

/** A due session as the run's query returns it. */
export interface DueCheck {
  session_id: string
  last_checked_at: Date | null
  reminded_at: Date | null
}

export interface CheckedPage {
  /** Checks the sync would only have recorded, recorded in one write. */
  recorded: SyncResult[]
  /** Sessions whose platform state, amount, expiry or reminder asks for the full, locked sync. */
  toSync: string[]
}

/**
 * Checks a page of due sessions of one account without a workflow per session: Medusa's side of the whole page
 * in two queries, each platform status read (PARALLEL_READS at a time), each judged with the sync's own decision
 * table. Where the sync would do nothing but record the check (`onlyRecordsCheck`: still waiting, same amount, no
 * reminder owed; or cancelled on both sides), the checks are recorded together in one statement; every other session
 * is returned for the full sync, which reads it again under its lock. Nothing here changes a payment, so no lock is
 * taken: a check another path recorded meanwhile is left as it wrote it. A failure to read Medusa's side or to write
 * the checks (the database) fails the page: the run stops, and its sessions are due again at the next one.
 */
export async function checkPage(
  container: MedusaContainer,
  providerId: string,
  due: DueCheck[],
  now: Date
): Promise<CheckedPage> {
  const provider = await refpayProviderFor(container, providerId)
  const states = await loadRefpaySessions(
    container,
    due.map((check) => check.session_id)
  )
  const judged = await eachLimited(due, PARALLEL_READS, async (check) => {
    const state = states.get(check.session_id)
    if (!state || state.providerId !== providerId) return { check, snapshot: null }
    const read = await readPlatform(provider.client, state)
    // Whatever one session's data holds, it never stops the page: judged again by the full sync.
    return { check, snapshot: attempt(() => judgeSnapshot(state, read, now, provider)) }
  })

  const unchanged: (UnchangedCheck & { platformStatus: string })[] = []
  const toSync: string[] = []
  for (const { check, snapshot } of judged) {
    const reminder =
      snapshot?.kind === "read" ? reminderOf(snapshot.state, provider.settings.reminderHoursBeforeExpiry, now) : null
    const reminderOwed = !!reminder?.send && !check.reminded_at
    if (snapshot && onlyRecordsCheck(snapshot, reminderOwed)) {
      unchanged.push({
        session_id: check.session_id,
        outcome: snapshot.decision.kind,
        check_until: checkUntilOf(snapshot, provider.settings),
        expires_at: validDate(expiresAtOf(snapshot)),
        last_checked_at: check.last_checked_at,
        platformStatus: snapshot.platform.status,
      })
    } else toSync.push(check.session_id)
  }
  const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  const written = new Set(
    await checks.recordUnchangedChecks(unchanged, now, nextCheckAt(now, provider.settings, 0, false))
  )
  const recorded = unchanged
    .filter((check) => written.has(check.session_id))
    .map((check): SyncResult => ({
      sessionId: check.session_id,
      action: check.outcome as SyncResult["action"],
      platformStatus: check.platformStatus,
    }))
  return { recorded, toSync }
}

function attempt<T>(judge: () => T): T | null {
  try {
    return judge()
  } catch {
    return null
  }
}

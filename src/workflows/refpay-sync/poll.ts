import type { ILockingModule, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../modules/refpay"
import type { ResolvedRefpayOptions } from "../../providers/refpay/options"
import { intervalMs } from "./check-schedule"
import { POLL_LOCK, TICK_LEASE_SECONDS } from "./poll-lock"
import { refpayProviderFor, refpayProviderIds } from "./provider"
import { resumeInterruptedCompletions } from "./resume-authorization"
import { syncRefpayPayment, type SyncResult } from "./sync-payment"

/** Syncs run at once per tick: enough to keep up with thousands of waiting payments, gentle on the platform. */
export const PARALLEL_SYNCS = 8
/** How long a manual run (the bench, tests) waits for a running tick; the scheduled job waits the minimum, 1 s. */
const WAIT_FOR_TICK_SECONDS = 600
const DAY = 86_400_000
const HOUR = 3_600_000

export interface PollOptions {
  /** The scheduled job: skip this tick when the previous one (here or on another server) is still running. */
  skipIfBusy?: boolean
}

/**
 * The fallback for late or lost webhooks, and the clock for expiry. Every REFPAY session still worth a look
 * (waiting, or cancelled/expired but still within the late-settlement window) has a check record; each tick syncs
 * the ones that are due, oldest due first, as many as the backlog needs for every session to be checked once per
 * `pollIntervalMinutes` (at least `pollBatchSize`). Failing sessions back off (the sync records each check), so
 * none can starve the others. Ticks never overlap: they run under a lock of Medusa's locking module, taken with
 * `execute` (a renewed lease with Redis, a transaction's advisory lock with PostgreSQL), so a crashed server's lock
 * lapses. Each tick first resumes the checkouts whose completion was interrupted (an order with a session never
 * authorised).
 */
export async function pollRefpayPayments(container: MedusaContainer, now = new Date(), options: PollOptions = {}): Promise<SyncResult[]> {
  const locking = container.resolve<ILockingModule>(Modules.LOCKING)
  let started = false
  const tick = () => {
    started = true
    return pollTick(container, now)
  }
  const timeout = options.skipIfBusy ? 1 : WAIT_FOR_TICK_SECONDS
  try {
    return await locking.execute(POLL_LOCK, tick, { timeout, expire: TICK_LEASE_SECONDS })
  } catch (error) {
    if (started || !options.skipIfBusy) throw error
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .info(`REFPAY poll: tick skipped; the previous tick is still running or the tick lock could not be taken (${(error as Error).message})`)
    return []
  }
}

/** One tick covers every REFPAY registration, each with its own settings and platform client. */
async function pollTick(container: MedusaContainer, now: Date): Promise<SyncResult[]> {
  const results: SyncResult[] = []
  for (const providerId of await refpayProviderIds(container)) results.push(...(await pollRegistration(container, providerId, now)))
  return results
}

async function pollRegistration(container: MedusaContainer, providerId: string, now: Date): Promise<SyncResult[]> {
  const settings = refpayProviderFor(container, providerId).settings
  const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  await resumeInterruptedCompletions(container, providerId, now, watchWindowMs(settings))
  await watchNewSessions(container, checks, providerId, settings)

  const watching = { provider_id: providerId, watch_until: { $gt: now } }
  const [, watchingCount] = await checks.listAndCountRefpayPaymentChecks(watching, { take: 1, select: ["id"] })
  const budget = Math.max(settings.pollBatchSize, Math.ceil(watchingCount / Math.max(1, settings.pollIntervalMinutes)))
  const due = await checks.listRefpayPaymentChecks(
    { ...watching, next_check_at: { $lte: now } },
    { take: budget, order: { next_check_at: "ASC" }, select: ["session_id"] }
  )
  return syncAll(container, due.map((row) => row.session_id), now)
}

/** Syncs the sessions with at most PARALLEL_SYNCS in flight; one failing never stops the others. */
async function syncAll(container: MedusaContainer, sessionIds: string[], now: Date): Promise<SyncResult[]> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const results: SyncResult[] = []
  let next = 0
  const worker = async () => {
    while (next < sessionIds.length) {
      const sessionId = sessionIds[next++]!
      try {
        results.push(await syncRefpayPayment(container, { sessionId, reason: "poll", now }))
      } catch (error) {
        logger.warn(`REFPAY poll: session ${sessionId} not checked: ${(error as Error).message}`)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL_SYNCS, sessionIds.length) }, worker))
  return results
}

/**
 * Starts watching REFPAY sessions that reached `pending_authorization` (an order was placed) and have no check
 * record yet: first due one interval after the order, watched until validity, grace and settlement window pass.
 */
async function watchNewSessions(
  container: MedusaContainer,
  checks: RefpayModuleService,
  providerId: string,
  settings: Readonly<ResolvedRefpayOptions>
): Promise<void> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "updated_at"],
    filters: { provider_id: providerId, status: "pending_authorization" },
  })
  const watchMs = watchWindowMs(settings)
  await checks.watchSessions(
    (data as { id: string; provider_id: string; updated_at: string | Date }[]).map((row) => {
      const placed = new Date(row.updated_at).getTime()
      return {
        session_id: row.id,
        provider_id: row.provider_id,
        next_check_at: new Date(placed + intervalMs(settings)),
        watch_until: new Date(placed + watchMs),
      }
    })
  )
}

/** How long after its checkout a reference may still be paid or settled: validity, grace and late settlement. */
function watchWindowMs(settings: Readonly<ResolvedRefpayOptions>): number {
  return settings.expiryDays * DAY + settings.expiryGraceHours * HOUR + settings.lateSettlementDays * DAY
}

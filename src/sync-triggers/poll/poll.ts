import type { ILockingModule, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../modules/refpay"
import type { ResolvedRefpayOptions } from "../../config"
import { POLL_LOCK, TICK_LEASE_SECONDS } from "./poll-lock"
import { refpayProviderFor, refpayProviderIds } from "../../providers/refpay/refpay-providers"
import { resumeInterruptedCompletions } from "../../workflows/refpay-reference/resume-authorization"
import { retryUnprocessedWebhookEvents } from "../webhook/retry-webhook-events"
import type { SyncResult } from "../sync-payment"
import type { DueCheck } from "./unchanged-checks"
import { CHECK_PAGE_SIZE, checkDuePage, handOutDueChecks, spreadsChecks } from "./due-pages"
import { intervalMs, validDate, watchWindowMs } from "../../rules/check-schedule"
import { keysetPages } from "./keyset-pages"
import { refreshReferenceCopies } from "../../medusa-compat/medusa-tables/reference-copies"
import { unwatchedSessions, type UnwatchedSession } from "../../medusa-compat/medusa-tables/session-queries"

/** New sessions read per query when the tick starts watching them, and the most one tick starts watching. */
export const WATCH_PAGE_SIZE = 500
export const MAX_WATCH_STARTS_PER_TICK = 10 * WATCH_PAGE_SIZE
/**
 * The most sessions one tick checks, whatever the backlog: 100,000 waiting with a 10-minute interval is 10,000 a
 * minute, and an unchanged check costs about 2 ms of the server's CPU (a changed one goes through the full sync).
 */
export const MAX_CHECKS_PER_TICK = 25_000
/** How long a manual run (the bench, tests) waits for a running tick; the scheduled job waits the minimum, 1 s. */
const WAIT_FOR_TICK_SECONDS = 600

export interface PollOptions {
  /** The scheduled job: skip this tick when the previous one (here or on another server) is still running. */
  skipIfBusy?: boolean
}

/**
 * The fallback for late or lost webhooks, and the clock for expiry. Every REFPAY session still worth a look
 * (waiting, or cancelled/expired but still within the late-settlement window) has a check record; each tick syncs
 * the ones that are due, oldest due first, as many as the backlog needs for every session to be checked once per
 * `pollIntervalMinutes` (at least `pollBatchSize`, at most MAX_CHECKS_PER_TICK). Failing sessions back off (the sync
 * records each check), so none can starve the others. Ticks never overlap: they run under a lock of Medusa's locking module, taken with
 * `execute` (a renewed lease with Redis, a transaction's advisory lock with PostgreSQL), so a crashed server's lock
 * lapses. Each tick first resumes the checkouts whose completion was interrupted (an order with a session never
 * authorised).
 */
export async function pollRefpayPayments(
  container: MedusaContainer,
  now = new Date(),
  options: PollOptions = {}
): Promise<SyncResult[]> {
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
      .info(
        `REFPAY poll: tick skipped; the previous tick is still running or the tick lock could not be taken (${(error as Error).message})`
      )
    return []
  }
}

/**
 * One tick processes again the webhook events left unprocessed, then covers every REFPAY registration, each with its
 * own settings and platform client.
 */
async function pollTick(container: MedusaContainer, now: Date): Promise<SyncResult[]> {
  await retryUnprocessedWebhookEvents(container, now)
  const results: SyncResult[] = []
  for (const providerId of await refpayProviderIds(container))
    results.push(...(await pollRegistration(container, providerId, now)))
  return results
}

async function pollRegistration(container: MedusaContainer, providerId: string, now: Date): Promise<SyncResult[]> {
  const settings = (await refpayProviderFor(container, providerId)).settings
  const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  await resumeInterruptedCompletions(container, providerId, now, watchWindowMs(settings))
  await watchNewSessions(container, checks, providerId, settings)

  const watching = { provider_id: providerId, watch_until: { $gt: now } }
  const due = { ...watching, next_check_at: { $lte: now } }
  const budget = await tickBudget(checks, watching, settings)
  if (spreadsChecks(container)) {
    await handOutDueChecks(container, providerId, budget, now)
    return []
  }
  const results: SyncResult[] = []
  const pages = keysetPages<DueRow>((after, take) => dueChecks(checks, due, after, take), CHECK_PAGE_SIZE, budget)
  for await (const page of pages) results.push(...(await checkDuePage(container, providerId, page, now)))
  return results
}

/**
 * How many due sessions this tick checks: enough for every watched session to be checked once per
 * `pollIntervalMinutes` (at least `pollBatchSize`, at most MAX_CHECKS_PER_TICK).
 */
async function tickBudget(
  checks: RefpayModuleService,
  watching: Record<string, unknown>,
  settings: Readonly<ResolvedRefpayOptions>
): Promise<number> {
  const [, watchingCount] = await checks.listAndCountRefpayPaymentChecks(watching, { take: 1, select: ["id"] })
  return Math.min(
    MAX_CHECKS_PER_TICK,
    Math.max(settings.pollBatchSize, Math.ceil(watchingCount / Math.max(1, settings.pollIntervalMinutes)))
  )
}

type DueRow = DueCheck & { next_check_at: Date }

/** Due checks, oldest due first, after `after` in (next_check_at, session id) order. */
async function dueChecks(
  checks: RefpayModuleService,
  due: Record<string, unknown>,
  after: DueRow | undefined,
  take: number
): Promise<DueRow[]> {
  const keyset = after
    ? {
        $or: [
          { next_check_at: { $gt: after.next_check_at } },
          { next_check_at: after.next_check_at, session_id: { $gt: after.session_id } },
        ],
      }
    : {}
  return (await checks.listRefpayPaymentChecks(
    { $and: [due, keyset] },
    {
      take,
      order: { next_check_at: "ASC", session_id: "ASC" },
      select: ["session_id", "next_check_at", "last_checked_at", "reminded_at"],
    }
  )) as DueRow[]
}

/**
 * Starts watching REFPAY sessions that reached `pending_authorization` (an order was placed) and have no check
 * record yet: first due one interval after the order, watched until validity, grace and settlement window pass.
 * Only sessions without a check record are read (the rest are watched already), WATCH_PAGE_SIZE at a time in id
 * order (keyset: a session whose record could not be written is not read again in this tick), and at most
 * MAX_WATCH_STARTS_PER_TICK per tick: a backlog (a restored database, a long outage of the job) is taken up over the
 * next ticks, and no query's rows or bindings grow with the number of sessions.
 */
async function watchNewSessions(
  container: MedusaContainer,
  checks: RefpayModuleService,
  providerId: string,
  settings: Readonly<ResolvedRefpayOptions>
): Promise<void> {
  const watchMs = watchWindowMs(settings)
  const unwatched = keysetPages<UnwatchedSession>(
    (after, take) => unwatchedSessions(container, providerId, after?.id ?? "", take),
    WATCH_PAGE_SIZE,
    MAX_WATCH_STARTS_PER_TICK
  )
  for await (const page of unwatched) {
    const watched = await checks.watchSessions(
      page.map((row) => {
        const placed = new Date(row.updated_at).getTime()
        return {
          session_id: row.id,
          provider_id: row.provider_id,
          next_check_at: new Date(placed + intervalMs(settings)),
          watch_until: new Date(placed + watchMs),
          expires_at: validDate(new Date(row.expires_at ?? NaN)),
        }
      })
    )
    await refreshReferenceCopies(container, watched)
  }
}

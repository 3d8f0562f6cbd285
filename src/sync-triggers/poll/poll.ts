import type { ILockingModule, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../modules/refpay"
import type { ResolvedRefpayOptions } from "../../config"
import { POLL_LOCK, POLL_RUN_LEASE_SECONDS } from "./poll-lock"
import { refpayProviderFor, refpayProviderIds } from "../../providers/refpay/refpay-providers"
import { resumeInterruptedCompletions } from "../../workflows/refpay-reference/resume-authorization"
import { retryUnprocessedWebhookEvents } from "../webhook/retry-webhook-events"
import type { SyncResult } from "../sync-payment"
import type { DueCheck } from "./unchanged-checks"
import { CHECK_PAGE_SIZE, checkDuePage, handOutDueChecks, distributesChecks } from "./due-pages"
import { intervalMs, validDate, checkWindowMs } from "../../rules/check-schedule"
import { keysetPages } from "./keyset-pages"
import { refreshReferenceCopies } from "../../medusa-compat/medusa-tables/reference-copies"
import { uncheckedSessions, type UncheckedSession } from "../../medusa-compat/medusa-tables/session-queries"

/** New sessions read per query when the run starts checking them, and the most one run starts checking. */
export const NEW_CHECKS_PAGE_SIZE = 500
export const MAX_NEW_CHECKS_PER_RUN = 10 * NEW_CHECKS_PAGE_SIZE
/**
 * The most sessions one run checks, whatever the backlog: 100,000 waiting with a 10-minute interval is 10,000 a
 * minute, and an unchanged check costs about 2 ms of the server's CPU (a changed one goes through the full sync).
 */
export const MAX_CHECKS_PER_RUN = 25_000
/** How long a manual run (the bench, tests) waits for a poll run in progress; the scheduled job waits the minimum, 1 s. */
const WAIT_FOR_RUN_SECONDS = 600

export interface PollOptions {
  /** The scheduled job: skip this run when the previous one (here or on another server) is still running. */
  skipIfBusy?: boolean
}

/**
 * The fallback for late or lost webhooks, and the clock for expiry. Every REFPAY session still worth a look
 * (waiting, or cancelled/expired but still within the late-settlement window) has a check record; each run syncs
 * the ones that are due, oldest due first, as many as the backlog needs for every session to be checked once per
 * `pollIntervalMinutes` (at least `pollBatchSize`, at most MAX_CHECKS_PER_RUN). Failing sessions back off (the sync
 * records each check), so none can starve the others. Poll runs never overlap: they run under a lock of Medusa's locking module, taken with
 * `execute` (a renewed lease with Redis, a transaction's advisory lock with PostgreSQL), so a crashed server's lock
 * lapses. Each run first resumes the checkouts whose completion was interrupted (an order with a session never
 * authorised).
 */
export async function pollRefpayPayments(
  container: MedusaContainer,
  now = new Date(),
  options: PollOptions = {}
): Promise<SyncResult[]> {
  const locking = container.resolve<ILockingModule>(Modules.LOCKING)
  let started = false
  const run = () => {
    started = true
    return pollRun(container, now)
  }
  const timeout = options.skipIfBusy ? 1 : WAIT_FOR_RUN_SECONDS
  try {
    return await locking.execute(POLL_LOCK, run, { timeout, expire: POLL_RUN_LEASE_SECONDS })
  } catch (error) {
    if (started || !options.skipIfBusy) throw error
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .info(
        `REFPAY poll: run skipped; the previous run is still running or the run lock could not be taken (${(error as Error).message})`
      )
    return []
  }
}

/**
 * One run processes again the webhook events left unprocessed, then covers every REFPAY account, each with its
 * own settings and platform client.
 */
async function pollRun(container: MedusaContainer, now: Date): Promise<SyncResult[]> {
  await retryUnprocessedWebhookEvents(container, now)
  const results: SyncResult[] = []
  for (const providerId of await refpayProviderIds(container))
    results.push(...(await pollAccount(container, providerId, now)))
  return results
}

async function pollAccount(container: MedusaContainer, providerId: string, now: Date): Promise<SyncResult[]> {
  const settings = (await refpayProviderFor(container, providerId)).settings
  const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  await resumeInterruptedCompletions(container, providerId, now, checkWindowMs(settings))
  await addNewSessionChecks(container, checks, providerId, settings)

  const checking = { provider_id: providerId, check_until: { $gt: now } }
  const due = { ...checking, next_check_at: { $lte: now } }
  const budget = await runBudget(checks, checking, settings)
  if (distributesChecks(container)) {
    await handOutDueChecks(container, providerId, budget, now)
    return []
  }
  const results: SyncResult[] = []
  const pages = keysetPages<DueRow>((after, take) => dueChecks(checks, due, after, take), CHECK_PAGE_SIZE, budget)
  for await (const page of pages) results.push(...(await checkDuePage(container, providerId, page, now)))
  return results
}

/**
 * How many due sessions this run checks: enough for every checked session to be checked once per
 * `pollIntervalMinutes` (at least `pollBatchSize`, at most MAX_CHECKS_PER_RUN).
 */
async function runBudget(
  checks: RefpayModuleService,
  checking: Record<string, unknown>,
  settings: Readonly<ResolvedRefpayOptions>
): Promise<number> {
  const [, checkedCount] = await checks.listAndCountRefpayPaymentChecks(checking, { take: 1, select: ["id"] })
  return Math.min(
    MAX_CHECKS_PER_RUN,
    Math.max(settings.pollBatchSize, Math.ceil(checkedCount / Math.max(1, settings.pollIntervalMinutes)))
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
 * Starts checking REFPAY sessions that reached `pending_authorization` (an order was placed) and have no check
 * record yet: first due one interval after the order, checked until validity, grace and settlement window pass.
 * Only sessions without a check record are read (the rest are checked already), NEW_CHECKS_PAGE_SIZE at a time in id
 * order (keyset: a session whose record could not be written is not read again in this run), and at most
 * MAX_NEW_CHECKS_PER_RUN per run: a backlog (a restored database, a long outage of the job) is taken up over the
 * next runs, and no query's rows or bindings grow with the number of sessions.
 */
async function addNewSessionChecks(
  container: MedusaContainer,
  checks: RefpayModuleService,
  providerId: string,
  settings: Readonly<ResolvedRefpayOptions>
): Promise<void> {
  const watchMs = checkWindowMs(settings)
  const unchecked = keysetPages<UncheckedSession>(
    (after, take) => uncheckedSessions(container, providerId, after?.id ?? "", take),
    NEW_CHECKS_PAGE_SIZE,
    MAX_NEW_CHECKS_PER_RUN
  )
  for await (const page of unchecked) {
    const checked = await checks.addPaymentChecks(
      page.map((row) => {
        const placed = new Date(row.updated_at).getTime()
        return {
          session_id: row.id,
          provider_id: row.provider_id,
          next_check_at: new Date(placed + intervalMs(settings)),
          check_until: new Date(placed + watchMs),
          expires_at: validDate(new Date(row.expires_at ?? NaN)),
        }
      })
    )
    await refreshReferenceCopies(container, checked)
  }
}

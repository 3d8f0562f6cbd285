import type { ConfigModule, IEventBusModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService, type TakenCheck } from "../../modules/refpay"
import { shopWideSetting } from "../../config"
import { isSharedEventBus, distributesPollChecks } from "../../rules/poll-distribution"
import { eachLimited } from "./each-limited"
import { syncRefpayPayment, type SyncResult } from "../sync-payment"
import { checkPage, type DueCheck } from "./unchanged-checks"

/** Full syncs run at once per page: enough to keep up with thousands of changed payments, gentle on the platform. */
export const PARALLEL_SYNCS = 8
/** Due sessions judged together: one load of Medusa's side and one write of the unchanged checks per page. */
export const CHECK_PAGE_SIZE = 250
/** A poll run's page of due checks, handed to the event bus for whichever process takes it. */
export const POLL_PAGE_DUE = "refpay.poll.page_due"
/**
 * How long the checks of a page handed to the event bus stay out of the next runs: a page whose process died (or
 * that could not be handed over) is due again after it. Five runs of the job (five minutes at the default), far
 * longer than a run's pages take to be checked (seconds), so a backlog on the event bus is not handed out twice.
 */
export function pageLeaseMs(env: NodeJS.ProcessEnv = process.env): number {
  return Math.max(30_000, 5 * shopWideSetting("pollEverySeconds", env) * 1_000)
}

/** The event of a page handed to the event bus (plain JSON: Medusa's Redis event bus stores it). */
export interface PollPageDue {
  provider_id: string
  /** The run's clock (the bench and tests run it ahead of the real clock), and when the page was handed over. */
  now: string
  handed_at: number
  checks: { session_id: string; last_checked_at: string | null; reminded_at: string | null }[]
}

/**
 * Whether this app's runs hand their due checks to the event bus (REFPAY_POLL_SPREAD; `auto`: when the shop runs
 * Medusa's Redis event bus, whose every `shared` and `worker` process takes pages from it).
 */
export function distributesChecks(container: MedusaContainer): boolean {
  const config = container.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
  const eventBus = config.modules?.[Modules.EVENT_BUS]
  const resolve = typeof eventBus === "object" ? (eventBus as { resolve?: unknown }).resolve : undefined
  return distributesPollChecks(
    shopWideSetting("pollSpread"),
    isSharedEventBus(typeof resolve === "string" ? resolve : undefined)
  )
}

/**
 * Hands an account's due checks (at most `budget`) to the event bus, CHECK_PAGE_SIZE at a time: each page is
 * taken in one statement (its checks leave the due list for `pageLeaseMs()`, so each payment is read once per run
 * whichever process checks it) and emitted as one event. Returns how many checks were handed over.
 */
export async function handOutDueChecks(
  container: MedusaContainer,
  providerId: string,
  budget: number,
  now: Date
): Promise<number> {
  const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  const eventBus = container.resolve<IEventBusModuleService>(Modules.EVENT_BUS)
  const leaseMs = pageLeaseMs()
  let handed = 0
  let pages = 0
  while (handed < budget) {
    const take = Math.min(CHECK_PAGE_SIZE, budget - handed)
    const page = await checks.takeDueChecks(providerId, now, new Date(now.getTime() + leaseMs), take)
    if (page.length === 0) break
    await eventBus.emit({ name: POLL_PAGE_DUE, data: pageEvent(providerId, page, now) })
    handed += page.length
    pages++
    if (page.length < take) break
  }
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .info(`REFPAY poll: ${handed} due checks of ${providerId} handed to the event bus in ${pages} pages`)
  return handed
}

function pageEvent(providerId: string, page: TakenCheck[], now: Date): PollPageDue {
  const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null)
  return {
    provider_id: providerId,
    now: now.toISOString(),
    handed_at: Date.now(),
    checks: page.map((check) => ({
      session_id: check.session_id,
      last_checked_at: iso(check.last_checked_at),
      reminded_at: iso(check.reminded_at),
    })),
  }
}

/**
 * Checks a page handed over by a run, on whichever process took it, by the run's clock moved on by the time the
 * page waited.
 */
export function checkHandedPage(container: MedusaContainer, page: PollPageDue): Promise<SyncResult[]> {
  const now = new Date(Date.parse(page.now) + Math.max(0, Date.now() - page.handed_at))
  const date = (iso: string | null) => (iso ? new Date(iso) : null)
  const due = page.checks.map((check) => ({
    session_id: check.session_id,
    last_checked_at: date(check.last_checked_at),
    reminded_at: date(check.reminded_at),
  }))
  return checkDuePage(container, page.provider_id, due, now)
}

/**
 * Checks one page of due sessions: the unchanged ones are recorded in a batch (`checkPage`), the others go through
 * the full, locked sync with at most PARALLEL_SYNCS in flight. One session failing never stops the others; a page
 * that cannot be checked at all (the database failing, the app shutting down) fails as a whole rather than fanning
 * out into a full sync per session that would fail the same way.
 */
export async function checkDuePage(
  container: MedusaContainer,
  providerId: string,
  page: DueCheck[],
  now: Date
): Promise<SyncResult[]> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const checked = await checkPage(container, providerId, page, now)
  const synced = await eachLimited(checked.toSync, PARALLEL_SYNCS, (sessionId) =>
    syncRefpayPayment(container, { sessionId, reason: "poll", now }).catch((error: Error) => {
      logger.warn(`REFPAY poll: session ${sessionId} not checked: ${error.message}`)
      return null
    })
  )
  return [...checked.recorded, ...synced.filter((result): result is SyncResult => result !== null)]
}

import { performance } from "node:perf_hooks"
import { seedWaitingPayments as seedWaiting, type SeedTarget } from "../integration-tests/fixtures/waiting-payments"
import { removeMonthOfReferences, seedMonthOfReferences } from "../integration-tests/fixtures/month-of-references"
import type { MedusaApp } from "./medusa-app-process"
import type { PollRunResult } from "./medusa-app-protocol"
import type { SandboxProcess } from "./sandbox-process"
import { loopbackApi, sandboxControl } from "./shop-api"
import { countStatements } from "./sql-stats"
import { round } from "./stats"

/**
 * The poll job (`pollRefpayPayments`) with thousands of waiting payments, seeded directly (seedWaitingPayments).
 * Poll runs happen in the app at a chosen `now`, a day ahead of the clock so the app's own minute job never finds them due.
 */

export interface PollSizes {
  /** Waiting payments for each timed poll run, ascending; the run at N is reported as poll_*_N. */
  runs: number[]
  /**
   * Waiting payments for the check-age simulations, ascending (poll_check_age_max_min_N, and the share of one core
   * the job takes, poll_core_share_N); each also in `runs`.
   */
  ages: number[]
}

export type PollFigures = Record<string, number>

const MINUTE = 60_000
const DAY = 86_400_000
export const POLL_INTERVAL_MINUTES = Number(process.env.REFPAY_POLL_INTERVAL_MINUTES ?? 10)

/** Due payments of the SQL count: one page of the poll job's batched checks (CHECK_PAGE_SIZE). */
const SQL_SAMPLE = 250

interface SeedContext extends SeedTarget {
  app: MedusaApp
  pgLogFile: string
  sandbox: SandboxProcess
  log: (line: string) => void
  webhookUrl(url: string | null): Promise<void>
}

interface TimedRun extends PollRunResult {
  platformCalls: number
}

async function pollRun(ctx: SeedContext, nowMs: number): Promise<TimedRun> {
  await sandboxControl(ctx.sandbox.url, "DELETE", "/requests")
  const result = await ctx.app.poll(nowMs)
  const { count } = await sandboxControl<{ count: number }>(ctx.sandbox.url, "GET", "/requests")
  return { ...result, platformCalls: count }
}

/** Puts `sessionIds` in the job's steady state: slot s (of one interval's minutes) due at start + s minutes, last checked one interval before. */
async function spreadSchedule(
  ctx: SeedContext,
  sessionIds: string[],
  startMs: number,
  interval: number
): Promise<Map<string, number>> {
  await ctx.db.query(
    `update refpay_payment_check c
        set next_check_at = $2::timestamptz + (s.slot * interval '1 minute'),
            last_checked_at = $2::timestamptz + ((s.slot - $3) * interval '1 minute'),
            failures = 0
       from (select sid, (ord - 1) % $3 as slot from unnest($1::text[]) with ordinality as u(sid, ord)) s
      where c.session_id = s.sid`,
    [sessionIds, new Date(startMs).toISOString(), interval]
  )
  const lastChecked = new Map<string, number>()
  sessionIds.forEach((id, i) => lastChecked.set(id, startMs + ((i % interval) - interval) * MINUTE))
  return lastChecked
}

/**
 * The longest any of the waiting payments goes unchecked, in minutes, over one poll interval and one poll run more,
 * from the job's steady state (payments arrive over time: each was last checked some time in the past interval and
 * is due one interval later). Each poll run starts at the job's next minute after the previous one really ended (a run
 * longer than a minute makes the job skip the minutes it overlaps), so a slow run shows here as a longer wait.
 * The first run is also the timed run of this size.
 */
async function checkAge(
  ctx: SeedContext,
  lastChecked: Map<string, number>,
  startMs: number,
  interval: number
): Promise<{ maxMinutes: number; runs: number; slowestRunMs: number; coreShare: number; first: TimedRun }> {
  let maxGap = 0
  let cpuInInterval = 0
  let now = startMs
  let lastRun = now
  let runs = 0
  let slowestRunMs = 0
  let first: TimedRun | undefined
  const end = startMs + interval * MINUTE
  while (now <= end) {
    const result = await pollRun(ctx, now)
    first ??= result
    if (now < end) cpuInInterval += result.cpuMs
    lastRun = now
    runs++
    slowestRunMs = Math.max(slowestRunMs, result.ms)
    for (const id of result.sessionIds) {
      const previous = lastChecked.get(id)
      if (previous === undefined) continue
      maxGap = Math.max(maxGap, now - previous)
      lastChecked.set(id, now)
    }
    ctx.log(
      `    poll run ${runs} at +${(now - startMs) / MINUTE} min: ${result.synced} checked in ${round(result.ms / 1000, 1)} s`
    )
    // The job runs every minute and skips a minute whose run would overlap a running one.
    now += Math.max(1, Math.ceil(result.ms / MINUTE)) * MINUTE
  }
  for (const checkedAt of lastChecked.values()) maxGap = Math.max(maxGap, lastRun - checkedAt)
  // The job's CPU over one interval (the runs at its minutes), as a share of one core over that interval.
  return {
    maxMinutes: maxGap / MINUTE,
    runs,
    slowestRunMs,
    coreShare: cpuInInterval / (interval * MINUTE),
    first: first!,
  }
}

function record(figures: PollFigures, size: number, result: TimedRun, log: (line: string) => void): void {
  const checked = Math.max(1, result.synced)
  figures[`poll_run_ms_${size}`] = round(result.ms, 1)
  figures[`poll_platform_calls_per_payment_${size}`] = round(result.platformCalls / checked, 3)
  figures[`poll_run_ms_per_payment_${size}`] = round(result.ms / checked, 2)
  figures[`poll_run_checked_${size}`] = result.synced
  figures[`poll_run_cpu_ms_per_payment_${size}`] = round(result.cpuMs / checked, 2)
  log(
    `  poll run with ${size} waiting: ${result.synced} checked in ${round(result.ms, 1)} ms (${round(result.ms / checked, 2)} ms each, ` +
      `${round(result.cpuMs / checked, 2)} ms of server CPU each), ` +
      `${result.platformCalls} platform calls, ${JSON.stringify(result.actions)}`
  )
}

export async function pollBench(ctx: SeedContext & { sizes: PollSizes }): Promise<PollFigures> {
  const figures: PollFigures = {}
  const { log, sizes } = ctx
  const interval = Math.max(1, POLL_INTERVAL_MINUTES)
  // Seeding creates thousands of payments on the platform: their PENDING webhooks would be thousands of syncs.
  await ctx.webhookUrl(null)
  try {
    // Only the seeded payments take part: earlier orders get their check record (a poll run at the real time makes
    // it), then are left out.
    await ctx.app.poll(Date.now())
    await ctx.db.query("update refpay_payment_check set check_until = null")

    let now = Date.now() + DAY
    // A warm-up poll run on payments of its own (first sync in this app: code paths compiled, a token fetched).
    await seedWaiting(ctx, 50, now)
    await pollRun(ctx, now)
    await ctx.db.query("update refpay_payment_check set check_until = null")
    now += MINUTE

    // SQL statements of one check: a poll run with nothing due, then one with a page of them due (counted apart from
    // timed runs; the poll job loads and records a page of unchanged checks at once).
    const idle = await countStatements(ctx.db, ctx.pgLogFile, async () => void (await ctx.app.poll(now)))
    now += MINUTE
    await seedWaiting(ctx, SQL_SAMPLE, now)
    let checked = 0
    const busy = await countStatements(
      ctx.db,
      ctx.pgLogFile,
      async () => void (checked = (await ctx.app.poll(now)).synced)
    )
    await ctx.db.query("update refpay_payment_check set check_until = null")
    now += MINUTE
    figures.db_statements_per_poll_run = idle.total
    figures.db_statements_per_poll_check = round((busy.total - idle.total) / Math.max(1, checked), 3)
    log(
      `  poll: ${idle.total} SQL statements per poll run, ${figures.db_statements_per_poll_check} per payment checked`
    )

    const seeded: string[] = []
    for (const size of sizes.runs) {
      const start = performance.now()
      seeded.push(...(await seedWaiting(ctx, size - seeded.length, now)))
      log(`  poll: ${seeded.length} waiting payments seeded (${round((performance.now() - start) / 1000, 1)} s)`)
      // What a poll run costs before it checks anything (finding new sessions, counting, selecting the due ones): one
      // at a time an hour earlier, when none of them is due yet.
      const idle = await pollRun(ctx, now - 60 * MINUTE)
      figures[`poll_idle_run_ms_${size}`] = round(idle.ms, 1)
      log(`  poll run with ${size} waiting and none due: ${round(idle.ms, 1)} ms`)
      if (size === sizes.runs[sizes.runs.length - 1])
        Object.assign(figures, await attentionTimes(ctx, size), await numbersTimes(ctx, size, now))
      if (sizes.ages.includes(size)) {
        // Timed as the first poll run of the check-age run, from the job's steady state.
        const start = now + 60 * MINUTE
        const lastChecked = await spreadSchedule(ctx, seeded, start, interval)
        const age = await checkAge(ctx, lastChecked, start, interval)
        record(figures, size, age.first, log)
        figures[`poll_check_age_max_min_${size}`] = round(age.maxMinutes, 2)
        figures[`poll_core_share_${size}`] = round(age.coreShare, 4)
        log(
          `  poll: ${size} waiting over ${age.runs} poll runs: longest unchecked ${round(age.maxMinutes, 2)} min ` +
            `(slowest poll run ${round(age.slowestRunMs / 1000, 1)} s), ${round(age.coreShare * 100, 2)}% of one core`
        )
        now = start + (interval + age.runs) * MINUTE
      } else {
        // Every payment due at once: the poll run checks its budget's worth, oldest due first.
        record(figures, size, await pollRun(ctx, now), log)
        now += MINUTE
      }
    }
    // An unchanged check (the platform still says WAITING): the largest poll run's CPU and SQL per payment checked.
    const largest = sizes.runs[sizes.runs.length - 1]!
    figures.poll_unchanged_check_cpu_ms = figures[`poll_run_cpu_ms_per_payment_${largest}`]!
    figures.poll_unchanged_check_sql = figures.db_statements_per_poll_check!
    return figures
  } finally {
    await ctx.webhookUrl(null).catch(() => undefined)
  }
}

/**
 * The REFPAY page's numbers (conversion, recovered, reconciliation: what the section asks for together, over HTTP)
 * for the last 30 days, with `size` references issued in them: a month of a shop's history seeded for it (most paid,
 * some expired, renewed, cancelled, refunded) and taken away after.
 */
async function numbersTimes(ctx: SeedContext, size: number, nowMs: number): Promise<PollFigures> {
  const { prefix } = await seedMonthOfReferences(ctx.db, size, 29, new Date(nowMs - DAY))
  try {
    const period = `from=${new Date(nowMs - 29 * DAY).toISOString().slice(0, 10)}&to=${new Date(nowMs).toISOString().slice(0, 10)}`
    const { ms, answers } = await slowestTogether(
      ctx,
      ["conversion", "recovered", "reconciliation"].map((view) => `/admin/refpay/numbers/${view}?${period}`)
    )
    const issued = answers[0].conversion.issued.count
    ctx.log(`  REFPAY page's numbers with ${issued} references issued in the period: ${round(ms, 1)} ms`)
    return { [`numbers_ms_${size}`]: round(ms, 1), [`numbers_issued_${size}`]: issued }
  } finally {
    await removeMonthOfReferences(ctx.db, prefix)
  }
}

/**
 * The REFPAY page's attention counts and the first page of its "expiring" list (the kind read off the sessions
 * themselves) with `size` payments, as the admin asks for them (together, over HTTP).
 */
async function attentionTimes(ctx: SeedContext, size: number): Promise<PollFigures> {
  const { ms } = await slowestTogether(ctx, [
    "/admin/refpay/attention",
    "/admin/refpay/attention/expiring?limit=20&offset=0",
  ])
  ctx.log(`  REFPAY page's attention counts and first page with ${size} payments: ${round(ms, 1)} ms`)
  return { [`attention_ms_${size}`]: round(ms, 1) }
}

/**
 * Admin GETs asked together, as a page asks them: the slowest of three tries after a warm-up (the first try, which
 * compiles the routes), with the last try's answers.
 */
async function slowestTogether(ctx: SeedContext, paths: string[]): Promise<{ ms: number; answers: any[] }> {
  const api = loopbackApi(ctx.app.ready.port)
  const headers = { headers: { authorization: ctx.app.ready.adminToken } }
  let ms = 0
  let answers: { data: unknown }[] = []
  for (let i = 0; i < 4; i++) {
    const start = performance.now()
    answers = await Promise.all(paths.map((path) => api.get(path, headers)))
    if (i > 0) ms = Math.max(ms, performance.now() - start)
  }
  return { ms, answers: answers.map((answer) => answer.data) }
}

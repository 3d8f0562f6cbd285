// A poll run's checks spread over the cluster (REFPAY_POLL_SPREAD, `auto` with Medusa's Redis event bus): thousands
// of waiting payments made due at once, and how fast the processes that take the poll run's pages from the event bus
// read them all, once each.
import { Client } from "pg"
import { seedWaitingPayments } from "../fixtures/waiting-payments"
import { CpuSampler } from "./cpu-samples"
import { POLL_EVERY_MS } from "./poll-runs"
import { pendingEvents } from "./redis-probe"
import { waitUntil, wholeNumberSetting, type ClusterServer, type ClusterStack } from "./stack"

/**
 * Waiting payments made due at once to measure how a poll run's checks spread: 2,000 by default, 8 pages of
 * CHECK_PAGE_SIZE (each server takes several, which is what the test proves); `npm run bench -- --only=cluster`
 * measures 4,000 (REFPAY_CLUSTER_SPREAD_CHECKS). At most 4,000, so a run's reads stay within the sandbox's request
 * log (10,000) until the test reads them.
 */
export const SPREAD_CHECKS = wholeNumberSetting("REFPAY_CLUSTER_SPREAD_CHECKS", 2_000, 1_000, 4_000)

/** What a process logs for each page of a poll run it checked (src/subscribers/refpay-poll-page-due.ts). */
export const PAGE_CHECKED = /REFPAY poll: a page of \d+ due checks of \S+ checked on this process/

export interface SpreadRun {
  processes: number
  checks: number
  /** From the first status read of the seeded payments to the last payment's first read. */
  seconds: number
  checks_per_s: number
  /** Share of the machine's cores busy from the first read to the last (PostgreSQL, Redis, the sandbox included). */
  machine_busy_share: number
  /** CPU milliseconds the checking processes used per payment over that span. */
  processes_cpu_ms_per_check: number
  /** Pages each process logged as checked during the run. */
  pages_by_process: Record<string, number>
  /** Seeded payments read twice within one poll run of the job (`<payment>@<poll run>`): a page handed out twice. */
  read_twice: string[]
}

/** The seeded payments, each with a platform payment id and a session, kept out of the poll runs until `run`. */
export class SeededWaiting {
  private constructor(
    private readonly db: Client,
    private readonly sessionIds: string[],
    private readonly paymentIds: Set<string>
  ) {}

  static async seed(stack: ClusterStack, count: number): Promise<SeededWaiting> {
    const db = new Client({ connectionString: stack.demo.info.database_url })
    await db.connect()
    const sandbox = stack.platform.url
    // Due in a month: no poll run looks at them until `run` makes them due. Their creation webhooks are not sent: the
    // servers would be busy with thousands of them during the runs.
    await stack.platform.configureWebhooks({ url: null })
    let sessionIds: string[]
    try {
      sessionIds = await seedWaitingPayments(
        { db, sandbox: { authUrl: `${sandbox}/auth`, paymentsUrl: sandbox } },
        count,
        Date.now() + 30 * 86_400_000
      )
    } finally {
      await stack.platform.configureWebhooks({ url: stack.fanOut.url })
    }
    const { rows } = await db.query<{ payment_id: string }>(
      `select data #>> '{refpay,payment_id}' as payment_id from payment_session where id = any($1)`,
      [sessionIds]
    )
    return new SeededWaiting(db, sessionIds, new Set(rows.map((r) => r.payment_id)))
  }

  /**
   * Makes every seeded payment due now and waits until each has been checked once; then parks them again (with
   * REFPAY_POLL_INTERVAL_MINUTES=0 every check leaves its payment due at the next poll run).
   */
  async run(stack: ClusterStack, processes: ClusterServer[]): Promise<SpreadRun> {
    const pagesBefore = processes.map((p) => stack.logLines(p, PAGE_CHECKED).length)
    // The request log keeps the last 10,000 requests: this run's reads must not push its first ones out.
    await stack.platform.clearRequests()
    const startedAt = new Date()
    const cpu = new CpuSampler(processes.map((p) => p.pid!))
    await this.db.query(
      `update refpay_payment_check set next_check_at = now() - interval '1 minute' where session_id = any($1)`,
      [this.sessionIds]
    )
    await waitUntil(
      async () => {
        const { rows } = await this.db.query<{ checked: number }>(
          `select count(*)::int as checked from refpay_payment_check where session_id = any($1) and last_checked_at >= $2`,
          [this.sessionIds, startedAt]
        )
        return rows[0]!.checked === this.sessionIds.length
      },
      180_000,
      `every seeded payment checked (${this.sessionIds.length})`
    )
    cpu.stop()
    const reads = (await stack.platform.statusReads()).filter((r) => this.paymentIds.has(r.payment_id))
    await this.park(stack)

    const firstReads = new Map<string, number>()
    for (const read of reads)
      firstReads.set(read.payment_id, Math.min(read.arrivedMs, firstReads.get(read.payment_id) ?? Infinity))
    const first = Math.min(...firstReads.values())
    const last = Math.max(...firstReads.values())
    // The job's poll runs start on whole multiples of its period: two reads of a payment in one period mean its check
    // was handed out twice in one poll run.
    const perRun = new Map<string, number>()
    for (const read of reads) {
      const key = `${read.payment_id}@${Math.floor(read.arrivedMs / POLL_EVERY_MS)}`
      perRun.set(key, (perRun.get(key) ?? 0) + 1)
    }
    const seconds = Math.max(0.001, (last - first) / 1000)
    const busy = cpu.between(first, last)
    return {
      processes: processes.length,
      checks: firstReads.size,
      seconds: Math.round(seconds * 100) / 100,
      checks_per_s: Math.round(firstReads.size / seconds),
      machine_busy_share: busy.machine_busy_share,
      processes_cpu_ms_per_check: Math.round((busy.processes_cpu_s * 1000 * 100) / firstReads.size) / 100,
      pages_by_process: Object.fromEntries(
        processes.map((p, i) => [p.name, stack.logLines(p, PAGE_CHECKED).length - pagesBefore[i]!])
      ),
      read_twice: [...perRun].filter(([, n]) => n > 1).map(([key]) => key),
    }
  }

  /**
   * Keeps the seeded payments out of the poll runs: not due for a month, once no page that holds some of them is left on
   * the event bus (a page checked after the parking would make its payments due again).
   */
  private async park(stack: ClusterStack): Promise<void> {
    const parkAll = () =>
      this.db.query(
        `update refpay_payment_check set next_check_at = now() + interval '30 days' where session_id = any($1)`,
        [this.sessionIds]
      )
    await parkAll()
    await waitUntil(
      async () => (await pendingEvents(stack.demo.cluster.redis.port)) === 0,
      120_000,
      "the pages on the event bus checked"
    )
    await parkAll()
  }

  /** Takes them out of the shop: their sessions and checks deleted, so no poll run or REFPAY page sees them again. */
  async remove(): Promise<void> {
    await this.db.query(`update payment_session set deleted_at = now() where id = any($1)`, [this.sessionIds])
    await this.db.query(`update refpay_payment_check set deleted_at = now() where session_id = any($1)`, [
      this.sessionIds,
    ])
    await this.db.end()
  }
}

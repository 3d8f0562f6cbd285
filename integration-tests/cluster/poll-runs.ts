// The poll job's poll runs as the platform saw them. The cluster's servers run the job every POLL_EVERY_SECONDS
// (REFPAY_POLL_EVERY_SECONDS, Medusa's `schedule: { interval }`, which its Redis workflow engine fires on whole
// multiples of the interval, as a cron fires on whole minutes), and with REFPAY_POLL_INTERVAL_MINUTES=0 every waiting
// payment is due at every poll run, so each poll run reads each waiting payment's status once. Read twice in one poll run means
// the job ran twice for that poll run (two servers each ran it).
import { setTimeout as sleep } from "node:timers/promises"
import type { Platform } from "./platform"

export const POLL_EVERY_SECONDS = 10
/** The poll job's period: its poll runs start on whole multiples of it. */
export const POLL_EVERY_MS = POLL_EVERY_SECONDS * 1_000
/** Time for a poll run started on its boundary to have read, synced and captured what it had to (a generous bound). */
export const POLL_RUN_MS = 20_000

export interface PollRunCount {
  /** Start of each whole poll run observed (ISO). */
  runs: string[]
  /** Per payment of interest: its status reads in each of those poll runs. */
  reads: Record<string, number[]>
  /** Any payment read more than once within one poll run (of all payments, not only those of interest). */
  readTwice: { payment_id: string; run: string; reads: number }[]
  /** Seconds after the boundary when each poll run's first and last read arrived: how long the poll run ran. */
  runSpans: { run: string; first_s: number; last_s: number; reads: number }[]
}

/** The first poll run boundary after `at`. */
export function nextPollRunAt(at: number): number {
  return Math.ceil((at + 1) / POLL_EVERY_MS) * POLL_EVERY_MS
}

/** The end of the first poll run that starts after `at`: its boundary plus POLL_RUN_MS for the poll run to run. */
export function endOfNextPollRun(at: number): number {
  return nextPollRunAt(at) + POLL_RUN_MS
}

/** How long after its boundary a poll run's status reads may still arrive (measured in CI: under half a second). */
const POLL_RUN_READS_MS = 1_500

/**
 * Resolves once the last poll run's reads are over and at least `clearMs` remain before the next boundary: a test that
 * puts a fault on one payment's status reads for a sync to take needs no poll run reading that payment meanwhile (every
 * poll run reads every waiting payment), or the poll run's read may take the fault.
 */
export async function clearOfPollRuns(clearMs: number): Promise<void> {
  const now = Date.now()
  const boundary = now - (now % POLL_EVERY_MS)
  const earliest = boundary + POLL_RUN_READS_MS
  const start =
    now < earliest
      ? earliest
      : boundary + POLL_EVERY_MS - now >= clearMs
        ? now
        : boundary + POLL_EVERY_MS + POLL_RUN_READS_MS
  await sleep(start - now)
}

/**
 * Watches `count` whole poll runs from the next boundary (or `from`, a boundary) and counts the status reads of
 * `paymentIds` per poll run, by the time each read arrived at the platform (the request log stamps the answer; its
 * duration says when it arrived). `tailMs` after the last poll run's end lets reads still being answered reach the log.
 */
export async function countPollRuns(
  platform: Platform,
  paymentIds: string[],
  count: number,
  tailMs = 3_000,
  from = nextPollRunAt(Date.now())
): Promise<PollRunCount> {
  const first = from
  await sleep(Math.max(0, first + count * POLL_EVERY_MS + tailMs - Date.now()))
  const reads = (await platform.statusReads()).filter(
    (r) => r.arrivedMs >= first && r.arrivedMs < first + count * POLL_EVERY_MS
  )
  const starts = Array.from({ length: count }, (_, i) => first + i * POLL_EVERY_MS)
  const bucket = (atMs: number) => Math.floor((atMs - first) / POLL_EVERY_MS)
  const result: PollRunCount = {
    runs: starts.map((t) => new Date(t).toISOString()),
    reads: Object.fromEntries(paymentIds.map((id) => [id, starts.map(() => 0)])),
    readTwice: [],
    runSpans: [],
  }
  const perPaymentRun = new Map<string, number>()
  for (const read of reads) {
    const b = bucket(read.arrivedMs)
    if (result.reads[read.payment_id]) result.reads[read.payment_id]![b]!++
    const key = `${read.payment_id}|${b}`
    perPaymentRun.set(key, (perPaymentRun.get(key) ?? 0) + 1)
  }
  for (const [key, n] of perPaymentRun) {
    if (n > 1) {
      const [id, b] = key.split("|")
      result.readTwice.push({ payment_id: id!, run: result.runs[Number(b)]!, reads: n })
    }
  }
  for (let b = 0; b < count; b++) {
    const inRun = reads.filter((r) => bucket(r.arrivedMs) === b).map((r) => (r.arrivedMs - starts[b]!) / 1000)
    result.runSpans.push({
      run: result.runs[b]!,
      first_s: inRun.length ? Math.min(...inRun) : -1,
      last_s: inRun.length ? Math.max(...inRun) : -1,
      reads: inRun.length,
    })
  }
  return result
}

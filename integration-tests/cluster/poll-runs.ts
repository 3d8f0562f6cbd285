// The poll job's poll runs as the platform saw them. The cluster's servers run the job every POLL_EVERY_SECONDS
// (REFPAY_POLL_EVERY_SECONDS, Medusa's `schedule: { interval }`, which its Redis workflow engine fires on whole
// multiples of the interval, as a cron fires on whole minutes), and with REFPAY_POLL_INTERVAL_MINUTES=0 every waiting
// payment is due at every poll run, so each poll run reads each waiting payment's status once. Read twice in one poll run means
// the job ran twice for that poll run (two servers each ran it).
import { setTimeout as sleep } from "node:timers/promises"
import type { Platform } from "./platform"

export const POLL_EVERY_SECONDS = 10
/** The poll job's period: its poll runs start on whole multiples of it. */
export const TICK = POLL_EVERY_SECONDS * 1_000
/** Time for a poll run started on its boundary to have read, synced and captured what it had to (a generous bound). */
export const TICK_RUN_MS = 20_000

export interface TickCount {
  /** Start of each whole poll run observed (ISO). */
  ticks: string[]
  /** Per payment of interest: its status reads in each of those poll runs. */
  reads: Record<string, number[]>
  /** Any payment read more than once within one poll run (of all payments, not only those of interest). */
  readTwice: { payment_id: string; tick: string; reads: number }[]
  /** Seconds after the boundary when each poll run's first and last read arrived: how long the poll run ran. */
  tickSpans: { tick: string; first_s: number; last_s: number; reads: number }[]
}

/** The first poll run boundary after `at`. */
export function tickAfter(at: number): number {
  return Math.ceil((at + 1) / TICK) * TICK
}

/** The end of the first poll run that starts after `at`: its boundary plus TICK_RUN_MS for the poll run to run. */
export function endOfNextTick(at: number): number {
  return tickAfter(at) + TICK_RUN_MS
}

/** How long after its boundary a poll run's status reads may still arrive (measured in CI: under half a second). */
const TICK_READS_MS = 1_500

/**
 * Resolves once the last poll run's reads are over and at least `clearMs` remain before the next boundary: a test that
 * puts a fault on one payment's status reads for a sync to take needs no poll run reading that payment meanwhile (every
 * poll run reads every waiting payment), or the poll run's read may take the fault.
 */
export async function clearOfTicks(clearMs: number): Promise<void> {
  const now = Date.now()
  const boundary = now - (now % TICK)
  const earliest = boundary + TICK_READS_MS
  const start = now < earliest ? earliest : boundary + TICK - now >= clearMs ? now : boundary + TICK + TICK_READS_MS
  await sleep(start - now)
}

/**
 * Watches `poll runs` whole poll runs from the next boundary (or `from`, a boundary) and counts the status reads of
 * `paymentIds` per poll run, by the time each read arrived at the platform (the request log stamps the answer; its
 * duration says when it arrived). `tailMs` after the last poll run's end lets reads still being answered reach the log.
 */
export async function countTicks(
  platform: Platform,
  paymentIds: string[],
  ticks: number,
  tailMs = 3_000,
  from = tickAfter(Date.now())
): Promise<TickCount> {
  const first = from
  await sleep(Math.max(0, first + ticks * TICK + tailMs - Date.now()))
  const reads = (await platform.statusReads()).filter((r) => r.arrivedMs >= first && r.arrivedMs < first + ticks * TICK)
  const starts = Array.from({ length: ticks }, (_, i) => first + i * TICK)
  const bucket = (atMs: number) => Math.floor((atMs - first) / TICK)
  const result: TickCount = {
    ticks: starts.map((t) => new Date(t).toISOString()),
    reads: Object.fromEntries(paymentIds.map((id) => [id, starts.map(() => 0)])),
    readTwice: [],
    tickSpans: [],
  }
  const perPaymentTick = new Map<string, number>()
  for (const read of reads) {
    const b = bucket(read.arrivedMs)
    if (result.reads[read.payment_id]) result.reads[read.payment_id]![b]!++
    const key = `${read.payment_id}|${b}`
    perPaymentTick.set(key, (perPaymentTick.get(key) ?? 0) + 1)
  }
  for (const [key, n] of perPaymentTick) {
    if (n > 1) {
      const [id, b] = key.split("|")
      result.readTwice.push({ payment_id: id!, tick: result.ticks[Number(b)]!, reads: n })
    }
  }
  for (let b = 0; b < ticks; b++) {
    const inTick = reads.filter((r) => bucket(r.arrivedMs) === b).map((r) => (r.arrivedMs - starts[b]!) / 1000)
    result.tickSpans.push({
      tick: result.ticks[b]!,
      first_s: inTick.length ? Math.min(...inTick) : -1,
      last_s: inTick.length ? Math.max(...inTick) : -1,
      reads: inTick.length,
    })
  }
  return result
}

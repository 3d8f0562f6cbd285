// The poll job's ticks as the platform saw them: its job runs every minute on the minute (cron "* * * * *"), and with
// REFPAY_POLL_INTERVAL_MINUTES=0 every waiting payment is due at every tick, so each tick reads each waiting
// payment's status once. Read twice in one minute means the job ran twice for that tick (two servers each ran it).
import type { Platform } from "./platform"
import { sleep } from "./stack"

export const MINUTE = 60_000

export interface TickCount {
  /** Start of each whole minute observed (ISO). */
  minutes: string[]
  /** Per payment of interest: its status reads in each of those minutes. */
  reads: Record<string, number[]>
  /** Any payment read more than once within one minute (of all payments, not only those of interest). */
  readTwice: { payment_id: string; minute: string; reads: number }[]
  /** Seconds after the minute when each minute's first and last read happened: how long the tick ran. */
  tickSpans: { minute: string; first_s: number; last_s: number; reads: number }[]
}

/** Resolves at the next minute boundary plus `afterMs`. */
export async function nextMinute(afterMs = 0): Promise<number> {
  const boundary = Math.ceil((Date.now() + 1) / MINUTE) * MINUTE
  await sleep(boundary - Date.now() + afterMs)
  return boundary
}

/**
 * Watches `minutes` whole minutes from the next boundary (plus `tailMs` for the last tick to finish) and counts the
 * status reads of `paymentIds` per minute.
 */
export async function countTicks(platform: Platform, paymentIds: string[], minutes: number, tailMs = 45_000): Promise<TickCount> {
  const first = await nextMinute()
  await sleep(minutes * MINUTE + tailMs - (Date.now() - first))
  const reads = (await platform.statusReads()).filter((r) => r.atMs >= first && r.atMs < first + minutes * MINUTE)
  const starts = Array.from({ length: minutes }, (_, i) => first + i * MINUTE)
  const bucket = (atMs: number) => Math.floor((atMs - first) / MINUTE)
  const result: TickCount = {
    minutes: starts.map((t) => new Date(t).toISOString()),
    reads: Object.fromEntries(paymentIds.map((id) => [id, starts.map(() => 0)])),
    readTwice: [],
    tickSpans: [],
  }
  const perPaymentMinute = new Map<string, number>()
  for (const read of reads) {
    const b = bucket(read.atMs)
    if (result.reads[read.payment_id]) result.reads[read.payment_id]![b]!++
    const key = `${read.payment_id}|${b}`
    perPaymentMinute.set(key, (perPaymentMinute.get(key) ?? 0) + 1)
  }
  for (const [key, n] of perPaymentMinute) {
    if (n > 1) {
      const [id, b] = key.split("|")
      result.readTwice.push({ payment_id: id!, minute: result.minutes[Number(b)]!, reads: n })
    }
  }
  for (let b = 0; b < minutes; b++) {
    const inMinute = reads.filter((r) => bucket(r.atMs) === b).map((r) => (r.atMs - starts[b]!) / 1000)
    result.tickSpans.push({
      minute: result.minutes[b]!,
      first_s: inMinute.length ? Math.min(...inMinute) : -1,
      last_s: inMinute.length ? Math.max(...inMinute) : -1,
      reads: inMinute.length,
    })
  }
  return result
}

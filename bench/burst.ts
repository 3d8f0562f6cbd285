import { performance } from "node:perf_hooks"
import type { Client } from "pg"
import type { CaptureWatcher } from "./capture-watcher"
import type { MedusaApp } from "./medusa-app-process"
import { sandboxControl } from "./shop-api"
import { median, round } from "./stats"

/** How long the platform waits for the shop's answer in the large burst (issue 22's target: at most 5 s). */
export const BURST_ANSWER_TIMEOUT_MS = 5_000
/** Payments captured one at a time first: the server CPU of a single capture, which the burst is compared with. */
const SINGLE_CAPTURES = 10

export interface BurstOrder {
  sessionId: string
  paymentId: string
}

/**
 * `webhook_burst_<N>_...`: first attempts unanswered in time, payments captured, captured twice, seconds to the last
 * capture, and the CPU-bound ratio (the time to the last capture / (N x one capture's server CPU): 1 is as fast as
 * the server's CPU allows).
 */
export type BurstFigures = Record<string, number>

export interface BurstContext {
  app: MedusaApp
  db: Client
  sandboxUrl: string
  watcher: CaptureWatcher
  log: (line: string) => void
  /** Places this many REFPAY orders, each waiting for its payment. */
  placeOrders(count: number): Promise<BurstOrder[]>
  /** Waits until the sandbox has no webhook delivery pending (bounded by `timeoutMs`). */
  settleWebhooks(timeoutMs?: number): Promise<void>
}

export async function pay(sandboxUrl: string, order: BurstOrder): Promise<number> {
  const start = performance.now()
  await sandboxControl(sandboxUrl, "POST", `/payments/${order.paymentId}/pay`)
  return start
}

/** The first delivery attempt of each order's APPROVED event, as the sandbox saw it: its answer and how long it took. */
export async function firstAnswers(
  sandboxUrl: string,
  orders: BurstOrder[]
): Promise<{ ms: number; status?: number; error?: string }[]> {
  type Attempt = { attempt: number; duration_ms: number; status?: number; error?: string }
  const view = await sandboxControl<{ events: { payment_id: string; attempts: Attempt[] }[] }>(
    sandboxUrl,
    "GET",
    "/webhooks?event_type=APPROVED_TRANSACTIONS"
  )
  const firstByPayment = new Map(view.events.map((e) => [e.payment_id, e.attempts.find((a) => a.attempt === 1)]))
  return orders.map((order) => {
    const first = firstByPayment.get(order.paymentId)
    if (!first) throw new Error(`no delivery attempt of payment ${order.paymentId}'s APPROVED event`)
    return { ms: first.duration_ms, status: first.status, error: first.error }
  })
}

/** Captures recorded per payment session, from Medusa's tables. */
async function capturesPerSession(db: Client, sessionIds: string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ session_id: string; captures: string }>(
    `select p.payment_session_id as session_id, count(c.id) as captures
       from payment p left join capture c on c.payment_id = p.id and c.deleted_at is null
      where p.payment_session_id = any($1) and p.deleted_at is null
      group by p.payment_session_id`,
    [sessionIds]
  )
  return new Map(rows.map((r) => [r.session_id, Number(r.captures)]))
}

/**
 * `count` payments paid at once, each APPROVED event delivered once with the platform waiting at most
 * BURST_ANSWER_TIMEOUT_MS for the shop's answer (a platform catching up after an outage, a salary day): how many
 * first deliveries went unanswered in time (each is sent again, and runs the sync again), whether every payment was
 * captured exactly once, and how close the time to the last capture came to the server CPU the captures need.
 */
export async function burstBench(ctx: BurstContext, count: number): Promise<BurstFigures> {
  const { app, db, sandboxUrl, watcher, log } = ctx
  const placedAt = performance.now()
  const orders = await ctx.placeOrders(SINGLE_CAPTURES + count)
  log(`  burst: placed ${orders.length} REFPAY orders (${round((performance.now() - placedAt) / 1000, 1)} s)`)

  const singleCpu: number[] = []
  for (const order of orders.slice(0, SINGLE_CAPTURES)) {
    const before = await app.cpuMs()
    await pay(sandboxUrl, order)
    await watcher.captured(order.sessionId)
    await ctx.settleWebhooks()
    singleCpu.push((await app.cpuMs()) - before)
  }
  const cpuPerCapture = median(singleCpu)

  const burst = orders.slice(SINGLE_CAPTURES)
  await sandboxControl(sandboxUrl, "POST", "/webhooks/config", { timeout_ms: BURST_ANSWER_TIMEOUT_MS })
  let captureSeconds: number
  try {
    const start = performance.now()
    const capturedAt = await Promise.all(
      burst.map(async (order) => {
        await pay(sandboxUrl, order)
        return watcher.captured(order.sessionId, 600_000).catch(() => Number.NaN)
      })
    )
    captureSeconds = (Math.max(...capturedAt.filter(Number.isFinite)) - start) / 1000
    await ctx.settleWebhooks(300_000)
  } finally {
    await sandboxControl(sandboxUrl, "POST", "/webhooks/config", { timeout_ms: 10_000 })
  }
  const answers = await firstAnswers(sandboxUrl, burst)
  const unanswered = answers.filter((a) => a.status === undefined || a.status >= 300)
  const captures = await capturesPerSession(
    db,
    burst.map((o) => o.sessionId)
  )
  const captured = burst.filter((o) => (captures.get(o.sessionId) ?? 0) >= 1).length
  const doubled = burst.filter((o) => (captures.get(o.sessionId) ?? 0) > 1).length
  const ratio = (captureSeconds * 1000) / (burst.length * cpuPerCapture)
  log(
    `  burst: ${burst.length} paid at once (the platform waits ${BURST_ANSWER_TIMEOUT_MS / 1000} s for an answer): ` +
      `${captured} captured (${doubled} twice) after ${round(captureSeconds, 1)} s; first deliveries answered p50 ` +
      `${round(median(answers.map((a) => a.ms)), 1)} ms, ${unanswered.length} not answered in time (sent again); ` +
      `one capture alone ${round(cpuPerCapture, 1)} ms of server CPU: ratio ${round(ratio, 2)}`
  )
  const key = `webhook_burst_${count}`
  return {
    [`${key}_first_attempts_unanswered`]: unanswered.length,
    [`${key}_captured`]: captured,
    [`${key}_double_captures`]: doubled,
    [`${key}_capture_s`]: round(captureSeconds, 1),
    [`${key}_cpu_bound_ratio`]: round(ratio, 2),
  }
}

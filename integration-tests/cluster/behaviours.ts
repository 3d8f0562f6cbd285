// The load test block: LOAD checkouts spread over the servers at once, then all of them paid at once with every
// webhook delivered twice to every server, each captured exactly once.
import { CHECKOUT_CONCURRENCY, checkouts, payAll, settle, tally, type CheckoutRun } from "./shop-load"
import { wholeNumberSetting, type ClusterStack } from "./stack"

/**
 * How many checkouts the load block places: 16 by default, CHECKOUT_CONCURRENCY (8) at a time. How many overlap, not
 * how many there are in all, is what races the completions, so a smaller load proves the same (two waves of 8; the
 * round-robin balancer splits them about evenly, and each server must place at least a quarter); each checkout costs
 * the cluster about 1.5 CPU-seconds. REFPAY_CLUSTER_LOAD=200 runs the size of the figures in docs/several-servers.md
 * (200 took 4 to 5 minutes of the 2-core machine in `npm test`).
 */
export const LOAD = wholeNumberSetting("REFPAY_CLUSTER_LOAD", 16, 16)

/** The checkouts; the run for `itCapturesTheLoadOnce`. */
export function itTakesTheLoad(stack: ClusterStack): { run?: CheckoutRun } {
  const load: { run?: CheckoutRun } = {}

  it(`takes ${LOAD} checkouts spread over the servers at once: ${LOAD} orders, ${LOAD} references, one platform creation each`, async () => {
    await stack.platform.clearRequests()
    const before = stack.demo.cluster.balancer.stats()
    const run = (load.run = await checkouts(stack, LOAD))
    const creations = await stack.platform.creations()
    const completions = tally(run.placed, (p) => p.servedBy)
    const after = stack.demo.cluster.balancer.stats()
    stack.figures("checkouts", {
      count: LOAD,
      concurrency: CHECKOUT_CONCURRENCY,
      seconds: run.ms / 1000,
      per_second: Math.round((LOAD / run.ms) * 100_000) / 100,
      completion_ms_median: median(run.placed.map((p) => p.completeMs)),
      completion_ms_max: Math.max(...run.placed.map((p) => p.completeMs)),
      completions_per_server: completions,
      requests_per_server: Object.fromEntries(
        Object.entries(after).map(([name, s]) => [name, s.requests - (before[name]?.requests ?? 0)])
      ),
      failed: run.failed.map((f) => f.error),
      platform_creations: creations.length,
    })

    expect(run.failed.map((f) => f.error)).toEqual([])
    expect(run.orders).toHaveLength(LOAD)
    expect(new Set(run.orders.map((o) => o.orderId)).size).toBe(LOAD)
    expect(new Set(run.orders.map((o) => `${o.entity}/${o.reference}`)).size).toBe(LOAD)
    expect(new Set(run.orders.map((o) => o.paymentId)).size).toBe(LOAD)
    // One creation call per order on the platform, every one answered 201: no retry, no second reference.
    expect(creations).toHaveLength(LOAD)
    expect(creations.every((c) => c.status === 201)).toBe(true)
    expect(new Set(creations.map((c) => c.idempotency_key)).size).toBe(LOAD)
    // Every server placed a fair share of the orders.
    for (const server of stack.httpServers)
      expect(completions[server.name] ?? 0).toBeGreaterThanOrEqual(LOAD / stack.httpServers.length / 2)
  })
  return load
}

export function itCapturesTheLoadOnce(stack: ClusterStack, load: { run?: CheckoutRun }): void {
  it(`captures each of the ${LOAD} exactly once when all are paid at once and every webhook reaches every server twice`, async () => {
    const run = load.run!
    expect(run?.orders).toHaveLength(LOAD)
    stack.fanOut.reset()
    await stack.platform.clearRequests()
    // Every event sent twice by the platform; the fan-out sends each copy to the plugin's webhook route of every
    // server (and to Medusa's webhook route of one of them when the suite asks for it).
    await stack.platform.webhookFault({ mode: "duplicate", count: LOAD, copies: 2 })
    const logged = capturesLogged(stack)
    const paidAt = Date.now()
    await payAll(stack, run.orders)
    const settled = await settle(stack, run.orders, paidAt, 600_000)
    const mine = new Set(run.orders.map((o) => o.paymentId))
    const events = (await stack.platform.webhooks()).filter(
      (e) => e.event_type === "APPROVED_TRANSACTIONS" && mine.has(e.payment_id)
    )
    stack.figures("payments", {
      count: LOAD,
      seconds_to_all_captured: settled.capturedMs / 1000,
      verdict: settled.verdict,
      logged_captures_by_trigger: capturesLogged(stack, logged),
      approved_events: events.length,
      sandbox_deliveries: events.reduce((n, e) => n + e.deliveries.length, 0),
      sandbox_attempts: events.reduce((n, e) => n + e.attempts.length, 0),
      fan_out: stack.fanOut.stats(),
      platform_status_reads: (await stack.platform.statusReads()).length,
      platform_cancellations: (await stack.platform.cancellations()).length,
    })

    expect(settled.verdict.lost).toEqual([])
    expect(settled.verdict.doubled).toEqual([])
    expect(settled.verdict.refunded).toEqual([])
    expect(settled.verdict.captured_once).toBe(LOAD)
    expect(settled.platform.filter((p) => mine.has(p.payment_id) && p.status !== "APPROVED")).toEqual([])
    expect(await stack.platform.cancellations()).toEqual([])
  })
}

/**
 * Captures the servers logged, by what triggered the sync ("webhook", "poll"), minus `before`. A rough split: a sync
 * that captured and then failed in a later step logs nothing.
 */
function capturesLogged(stack: ClusterStack, before: Record<string, number> = {}): Record<string, number> {
  const out: Record<string, number> = {}
  for (const server of stack.servers) {
    for (const line of stack.logLines(server, /platform APPROVED -> capture/)) {
      const trigger = /\((\w+)\): platform APPROVED/.exec(line)?.[1] ?? "other"
      out[trigger] = (out[trigger] ?? 0) + 1
    }
  }
  for (const [k, n] of Object.entries(before)) out[k] = (out[k] ?? 0) - n
  return out
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

// Several `medusa start` processes of one app on one PostgreSQL and one Redis with Medusa's Redis modules, behind a
// round-robin load balancer; the platform's webhooks delivered to every server. First two `shared` servers (each
// serves HTTP and runs the scheduled jobs and subscribers), then Medusa's documented production set-up: two servers
// in `server` mode and one process in `worker` mode. One stack for both, redeployed in between (as the restart after
// the whole shop is killed), so the phase fits CI on two cores. What the phase costs is mostly Medusa's work: each
// order placed (about 1.5 CPU-seconds) and each `medusa start` (about 5.5); waiting for a lease costs little (the
// idle stack uses about 0.04 CPU-seconds a second). So tests pay orders earlier tests left waiting
// (`waitingOrders`) rather than place new ones, and no process starts twice where once serves.
import { itCapturesTheLoadOnce, itTakesTheLoad } from "./behaviours"
import { captureVerdict } from "./ledger"
import { CREATE_PATH, STATUS_PATH } from "./platform"
import { POLL_LOCK, POLL_RUN_LEASE_SECONDS } from "../../src/sync-triggers/poll/poll-lock"
import {
  clearOfPollRuns,
  countPollRuns,
  endOfNextPollRun,
  POLL_EVERY_MS,
  POLL_RUN_MS,
  nextPollRunAt,
} from "./poll-runs"
import { redisKeyCount, redisTtl } from "./redis-probe"
import {
  CHECKOUT_CONCURRENCY,
  checkouts,
  eachLimited,
  payAll,
  quiet,
  settle,
  tally,
  waitingOrders,
  type Order,
} from "./shop-load"
import { ClusterStack, sleep, waitUntil, type ClusterServer } from "./stack"
import { SeededWaiting, SPREAD_CHECKS, type SpreadRun } from "./spread-checks"
import { CHECK_PAGE_SIZE } from "../../src/sync-triggers/poll/due-pages"
import type { PlacedOrder } from "./storefront"

const stack = new ClusterStack({ name: "several-servers", servers: 2 })

beforeAll(() => stack.start(), 900_000)
afterAll(() => stack.stop(), 180_000)
stack.recordCpuPerTest()

/**
 * Medusa's documented production set-up, as a redeployment of the two shared servers: two servers in `server` mode
 * and one process in `worker` mode on the same database, Redis and load balancer; webhooks also through Medusa's
 * webhook route, whose events the worker processes through the Redis event bus.
 */
const PRODUCTION_SET_UP = { servers: 2, worker: true, medusaRoute: true }
/** Orders placed while Redis restarts; left waiting for the worker's poll run in the next test. */
const PLACED_DURING_REDIS_RESTART = 8
/** What a server logs when it ran a webhook's sync itself instead of handing it to the worker. */
const SERVER_SYNC_LINES = /answered while its sync goes on|, not processed|not handed to the workers/
/** The poll job's poll run's lock as Medusa's Redis locking provider keeps it (its default key prefix). */
const POLL_LOCK_KEY = `medusa_lock:${POLL_LOCK}`
/** Every REFPAY session lock (refpaySessionLockKey), as the same provider keeps them. */
const SESSION_LOCK_KEYS = "medusa_lock:refpay:session:*"

/** Waits until `ready()` holds (or `timeoutMs` passes), then `afterMs` more, then kills `server` with SIGKILL. */
async function killWhen(
  server: ClusterServer,
  ready: () => boolean | Promise<boolean>,
  timeoutMs: number,
  afterMs = 0
) {
  const started = Date.now()
  let met = await ready()
  while (!met && Date.now() - started < timeoutMs) {
    await sleep(10)
    met = await ready()
  }
  await sleep(afterMs)
  await server.kill("SIGKILL")
  return { waited_ms: Date.now() - started, condition_met: met }
}

/**
 * Whether the customer of the i-th interrupted checkout tries "Place order" again after an error page (the others give
 * up): two in every four, so that each server's share of the completions, which the round-robin balancer deals out
 * alternately, holds customers of both kinds, whichever server dies.
 */
function triesAgain(i: number): boolean {
  return i % 4 < 2
}

/** The payment session a platform `order_id` belongs to: `ps_<ULID>` (or `ps_<ULID>-<n>`) is `payses_<ULID>`. */
function sessionIdOf(platformOrderId: string): string {
  return `payses_${platformOrderId.replace(/^ps_/, "").split("-")[0]}`
}

describe("several servers on one PostgreSQL and one Redis", () => {
  describe("two shared servers", () => {
    const load = itTakesTheLoad(stack)

    // A server killed during checkout completions; what it left is checked after the next poll run (below), while
    // the load's payments run.
    const interrupted: {
      run: PlacedOrder[]
      carts: string[]
      kill?: { waited_ms: number; condition_met: boolean }
      killedAt: number
    } = { run: [], carts: [], killedAt: 0 }

    it("keeps taking orders when a server is killed (SIGKILL) during checkout completions and restarted: every customer who tries again gets an order", async () => {
      const victim = stack.server("server-1")
      const carts = await eachLimited(Array.from({ length: 16 }), CHECKOUT_CONCURRENCY, () =>
        stack.storefront.prepareCart(stack.variantId)
      )
      const referencesBefore = (await stack.platform.payments()).length
      // A slow platform: each reference is created at once but answered 8 s later, so the completions the victim is
      // running are past the platform's creation, and not yet recorded, when it dies.
      await stack.platform.control("POST", "/faults", {
        path: CREATE_PATH,
        method: "POST",
        count: 100,
        delay_ms: 8_000,
        when: "after",
      })
      interrupted.carts = carts
      try {
        // Half the customers try "Place order" again after an error page; the other half give up.
        const completing = Promise.all(
          carts.map((cartId, i) => stack.storefront.complete(cartId, triesAgain(i) ? 10 : 0))
        )
        // The platform lists a payment as soon as it is created (its request log only once it is answered).
        const victimCompleting = () =>
          stack.demo.cluster.balancer.inFlight(victim.name).filter((path) => path.endsWith("/complete")).length
        interrupted.kill = await killWhen(
          victim,
          async () => victimCompleting() >= 2 && (await stack.platform.payments()).length - referencesBefore >= 10,
          120_000
        )
        interrupted.killedAt = Date.now()
        await sleep(3_000)
        await victim.start()
        interrupted.run = await completing
      } finally {
        await stack.platform.control("DELETE", "/faults")
      }
      expect(interrupted.kill!.condition_met).toBe(true)
      // Every customer who tried again got an order.
      expect(interrupted.run.filter((p, i) => triesAgain(i) && !p.orderId).map((p) => p.error)).toEqual([])
      // The kill reached both kinds of customer: some who tried again needed to (their first completion died with the
      // server, so the retry waited for Medusa's two-minute cart lock to lapse), and some who gave up got an error.
      expect(interrupted.run.some((p, i) => triesAgain(i) && p.attempts > 1)).toBe(true)
      expect(interrupted.run.some((p, i) => !triesAgain(i) && !p.orderId)).toBe(true)
    })

    itCapturesTheLoadOnce(stack, load)

    it("leaves no order without a visible reference, and no reference without an order uncancelled, after the next poll run following the server killed during checkout completions", async () => {
      const { run, carts, killedAt } = interrupted
      const kill = interrupted.kill
      expect(run).toHaveLength(16)
      // The dead server's locks expire (the session lock within 60 s); then one poll run, the latest by which every
      // order must show its reference. What the customers see is read until it holds (it usually does at once: the
      // load's checkouts and payments took a minute or more), at most until that poll run's end; the assertions check the last reading.
      const deadline = endOfNextPollRun(Math.max(Date.now(), killedAt + 60_000))
      const cartIds = run.map((p) => p.cartId)
      const gaveUp = new Set(carts.filter((_, i) => !triesAgain(i)))
      const inspect = async () => {
        const sessions = await stack.ledger.sessionsOfCarts(cartIds)
        const ordersOfCarts = await stack.ledger.ordersOfCarts(cartIds)
        const sessionIds = new Set(sessions.map((s) => s.session_id))
        const platform = (await stack.platform.payments()).filter((p) => sessionIds.has(sessionIdOf(p.order_id)))
        const byPaymentId = new Map(platform.map((p) => [p.payment_id, p]))

        // What each customer sees for each order.
        const visible = new Map<string, string>() // platform payment id -> order id
        const invisible: string[] = []
        const shown: Order[] = []
        for (const { order_id, cart_id } of ordersOfCarts) {
          const view = await stack.storefront.refpayView(order_id).catch((error: Error) => ({ error: error.message }))
          if ("error" in view) {
            invisible.push(`${order_id}: ${view.error}`)
            continue
          }
          const onPlatform = byPaymentId.get(view.payment_id)
          if (
            !onPlatform ||
            onPlatform.additional_data.reference !== view.reference ||
            onPlatform.status !== "WAITING"
          ) {
            invisible.push(
              `${order_id}: shows ${view.entity}/${view.reference} (${view.payment_id}), platform has ${onPlatform ? `${onPlatform.additional_data.reference} ${onPlatform.status}` : "nothing"}`
            )
          }
          visible.set(view.payment_id, order_id)
          shown.push({
            cartId: cart_id,
            orderId: order_id,
            paymentId: view.payment_id,
            reference: view.reference,
            entity: view.entity,
          })
        }
        // References the platform issued for these carts that no order shows, still payable.
        const sessionById = new Map(sessions.map((s) => [s.session_id, s]))
        const orphans = platform
          .filter((p) => !visible.has(p.payment_id) && p.status !== "CANCELLED")
          .map((p) => {
            const session = sessionById.get(sessionIdOf(p.order_id))
            return {
              reference: `${p.additional_data.entity}/${p.additional_data.reference}`,
              payment_id: p.payment_id,
              platform_status: p.status,
              created_at: p.received_at,
              session: session?.session_id,
              session_status: session?.session_status,
              session_has_reference: Boolean(session?.refpay_payment_id),
              customer_gave_up: session?.cart_id ? gaveUp.has(session.cart_id) : null,
              order: session?.order_id ?? null,
            }
          })
        const completedTwice = Object.entries(tally(ordersOfCarts, (row) => row.cart_id)).filter(([, n]) => n > 1)
        return { ordersOfCarts, platform, invisible, orphans, completedTwice, shown }
      }
      let seen = await inspect()
      const waitedMs = await waitUntil(
        async () => {
          seen = await inspect()
          return seen.invisible.length + seen.orphans.length + seen.completedTwice.length === 0
        },
        Math.max(0, deadline - Date.now()),
        "every interrupted checkout's order showing its reference"
      ).catch(() => -1)
      // The last reading, taken by the deadline: what the assertions below check.
      const { ordersOfCarts, platform, invisible, orphans, completedTwice, shown } = seen
      const retried = run.filter((_, i) => triesAgain(i))
      stack.figures("kill_during_checkout", {
        checkouts: run.length,
        ...kill!,
        killed_at: new Date(killedAt).toISOString(),
        orders: ordersOfCarts.length,
        customers_who_retried: {
          count: retried.length,
          with_order: retried.filter((p) => p.orderId).length,
          attempts: tally(retried, (p) => String(p.attempts)),
        },
        customers_who_gave_up: {
          count: run.length - retried.length,
          with_order: run.filter((p, i) => !triesAgain(i) && p.orderId).length,
          errors: run.filter((p, i) => !triesAgain(i) && !p.orderId).map((p) => p.error),
        },
        platform_references: platform.length,
        cancelled_references: platform.filter((p) => p.status === "CANCELLED").length,
        invisible,
        orphans,
        completed_twice: completedTwice,
        checked_at: new Date().toISOString(),
        deadline: new Date(deadline).toISOString(),
        references_shown_after_ms: waitedMs,
      })

      expect(completedTwice).toEqual([])
      expect(invisible).toEqual([])
      expect(orphans).toEqual([])
      // Each shows a payable reference: the later tests pay them (and prove each captured once) instead of placing
      // new orders.
      stack.unpaidOrders.push(...shown)
    })
  })

  it("reads each waiting payment once per poll run across both servers, and a late webhook still ends in one capture", async () => {
    const waiting = await waitingOrders(stack, 8, 4)
    expect(waiting.failed.map((f) => f.error)).toEqual([])
    expect(waiting.orders).toHaveLength(8)
    const ids = waiting.orders.map((o) => o.paymentId)
    const late = waiting.orders.slice(0, 4)
    const lateIds = new Set(late.map((o) => o.paymentId))
    const skippedBefore = stack.servers.map((s) => stack.logLines(s, /previous run is still running/).length)

    // One whole poll run of status reads. Once its poll run has read every waiting payment, four customers pay and the
    // platform holds their webhooks until after the next poll run, which must find them paid.
    const boundary = nextPollRunAt(Date.now())
    const counting = countPollRuns(stack.platform, ids, 1, undefined, boundary)
    await waitUntil(
      async () => {
        const read = new Set(
          (await stack.platform.statusReads()).filter((r) => r.arrivedMs >= boundary).map((r) => r.payment_id)
        )
        return ids.every((id) => read.has(id))
      },
      boundary + POLL_RUN_MS - Date.now(),
      "the poll run reading every waiting payment"
    )
    // The poll run that must catch them: the next one after they are paid (a second later at most). Their webhooks are
    // dropped, and the platform sends them again once that poll run has captured them: late webhooks.
    const catching = nextPollRunAt(Date.now() + 1_000)
    await stack.platform.webhookFault({ mode: "drop", count: late.length })
    const latePaidAt = Date.now()
    await payAll(stack, late)
    await waitUntil(
      async () => (await stack.ledger.orders(late.map((o) => o.orderId))).every((r) => r.captures > 0),
      catching + POLL_RUN_MS - Date.now(),
      "the late-webhook payments captured by the next poll run"
    )
    const counted = await counting
    const lateRows = await stack.ledger.orders(late.map((o) => o.orderId))
    const capturedMs = Math.max(...lateRows.map((r) => (r.captured_at?.getTime() ?? Date.now()) - latePaidAt))
    const heldBack = (await stack.platform.webhooks()).filter(
      (e) => lateIds.has(e.payment_id) && e.event_type === "APPROVED_TRANSACTIONS"
    )
    stack.fanOut.reset()
    for (const event of heldBack) await stack.platform.redeliver(event.event_id)
    await waitUntil(
      async () =>
        (await stack.platform.webhooks())
          .filter((e) => lateIds.has(e.payment_id))
          .every((e) => e.state === "delivered"),
      90_000,
      "the late webhooks delivered"
    )
    await quiet(stack, 60_000)
    const lateVerdict = captureVerdict(
      await stack.ledger.orders(late.map((o) => o.orderId)),
      await stack.platform.payments()
    )
    const skipped = Object.fromEntries(
      stack.servers.map((s, i) => [
        s.name,
        stack.logLines(s, /previous run is still running/).length - skippedBefore[i]!,
      ])
    )
    const answers = stack.fanOut.stats().answers
    stack.figures("poll_runs_shared", {
      waiting: ids.length,
      poll_every_ms: POLL_EVERY_MS,
      runs: counted.runs,
      run_spans: counted.runSpans,
      read_twice: counted.readTwice,
      skipped_by_poll_lock: skipped,
    })
    stack.figures("late_webhook", {
      seconds_from_pay_to_capture_by_poll: capturedMs / 1000,
      webhook_attempts_before_capture: heldBack.map((e) => e.attempts.length),
      verdict: lateVerdict,
      late_webhook_answers: answers,
    })

    for (const id of ids) expect({ id, reads: counted.reads[id] }).toEqual({ id, reads: [1] })
    expect(counted.readTwice).toEqual([])
    expect(heldBack).toHaveLength(late.length)
    expect(heldBack.every((e) => e.attempts.length === 0)).toBe(true) // captured before any webhook arrived
    expect(lateVerdict.lost).toEqual([])
    expect(lateVerdict.doubled).toEqual([])
    expect(lateVerdict.captured_once).toBe(late.length)
    // The late webhooks reached both servers, which found the payment captured: 200, never 503.
    for (const server of stack.httpServers) expect(Object.keys(answers[server.name] ?? {})).toEqual(["200"])

    // The others are left waiting for the next test, which pays them and proves each captured once.
    stack.unpaidOrders.push(...waiting.orders.slice(late.length))
  })

  it("distributes a poll run's checks over both shared servers through Medusa's Redis event bus: each payment read once, pages checked by both; checks per second with one server and with two", async () => {
    const seeded = await SeededWaiting.seed(stack, SPREAD_CHECKS)
    try {
      // A first run warms both servers up (connections, compiled code, the platform token); the second is measured.
      const warmUp = await seeded.run(stack, stack.servers)
      const both = await seeded.run(stack, stack.servers)
      const second = stack.server("server-2")
      await second.kill("SIGTERM") // as a deployment stops it
      let alone: SpreadRun
      try {
        alone = await seeded.run(stack, [stack.server("server-1")])
      } finally {
        await second.start()
      }
      stack.figures("poll_checks_spread", {
        one_process: alone,
        two_processes: both,
        cluster_checks_per_s_1: alone.checks_per_s,
        cluster_checks_per_s_2: both.checks_per_s,
        ratio_2_to_1: Math.round((both.checks_per_s / alone.checks_per_s) * 100) / 100,
      })
      for (const run of [warmUp, both, alone]) {
        expect(run.read_twice).toEqual([])
        expect(run.checks).toBe(SPREAD_CHECKS)
      }
      // Both servers took pages from the event bus; each page is CHECK_PAGE_SIZE payments at most.
      for (const pages of Object.values(both.pages_by_process)) expect(pages).toBeGreaterThan(0)
      expect(alone.pages_by_process["server-1"]).toBeGreaterThanOrEqual(Math.ceil(SPREAD_CHECKS / CHECK_PAGE_SIZE))
    } finally {
      await seeded.remove()
    }
  })

  it("captures every paid order exactly once when a server is killed (SIGKILL) in the middle of a webhook burst: first with only the other server left, then after it restarts", async () => {
    const batch = await waitingOrders(stack, 12)
    expect(batch.failed.map((f) => f.error)).toEqual([])
    expect(batch.orders).toHaveLength(12)
    const victim = stack.server("server-1")
    stack.fanOut.reset()
    // Every event twice, to both servers; the platform's status reads take 4 s, so the victim dies holding the
    // locks (the session's, Medusa's cart lock) of the payments it is syncing.
    await stack.platform.webhookFault({ mode: "duplicate", count: batch.orders.length, copies: 2 })
    await stack.platform.control("POST", "/faults", {
      path: STATUS_PATH,
      method: "GET",
      count: 15,
      delay_ms: 4_000,
      when: "before",
    })
    const paidAt = Date.now()
    const paying = payAll(stack, batch.orders)
    let kill: { waited_ms: number; condition_met: boolean }
    try {
      kill = await killWhen(victim, () => stack.fanOut.inFlight(victim.name) >= 5, 30_000, 1_500)
    } finally {
      await paying
    }
    const killedAt = paidAt + kill.waited_ms
    const rowsAtKill = await stack.ledger.orders(batch.orders.map((o) => o.orderId))
    // The dead server's locks expire: the session lock within 60 s, Medusa's cart lock (processPaymentWorkflow)
    // within 2 minutes; the poll run after that is the latest any paid order may still be awaiting.
    const deadline = endOfNextPollRun(killedAt + 120_000)
    try {
      // Only the other server is left: every paid order captured once, nothing awaiting after the poll run
      // that follows the dead server's locks expiring.
      const settled = await settle(stack, batch.orders, paidAt, deadline - Date.now() + 60_000)
      const allCapturedAt = paidAt + settled.capturedMs
      stack.figures("kill_during_webhooks", {
        orders: batch.orders.length,
        ...kill,
        captured_when_killed: rowsAtKill.filter((r) => r.captures > 0).length,
        killed_at: new Date(killedAt).toISOString(),
        deadline: new Date(deadline).toISOString(),
        all_captured_at: new Date(allCapturedAt).toISOString(),
        seconds_from_kill_to_all_captured: (allCapturedAt - killedAt) / 1000,
        verdict: settled.verdict,
        fan_out: stack.fanOut.stats(),
      })
      expect(kill.condition_met).toBe(true)
      expect(victim.isRunning()).toBe(false)
      expect(settled.verdict.lost).toEqual([])
      expect(settled.verdict.doubled).toEqual([])
      expect(settled.verdict.captured_once).toBe(batch.orders.length)
      expect(allCapturedAt).toBeLessThanOrEqual(deadline)
    } finally {
      await stack.platform.control("DELETE", "/faults")
      await victim.start()
    }
    // Restarted, it takes its share again: new orders, their requests answered by both servers (counted at the
    // balancer: which server answers each completion depends on the turn of the round robin, not on the servers),
    // captured once through their webhooks.
    const requestsBefore = stack.demo.cluster.balancer.stats()
    const after = await checkouts(stack, 4, 2)
    expect(after.failed.map((f) => f.error)).toEqual([])
    const requestsAfter = stack.demo.cluster.balancer.stats()
    for (const server of ["server-1", "server-2"]) {
      expect({ server, answered: requestsAfter[server]!.requests > (requestsBefore[server]?.requests ?? 0) }).toEqual({
        server,
        answered: true,
      })
    }
    const paidAfter = Date.now()
    await payAll(stack, after.orders)
    const settledAfter = await settle(stack, after.orders, paidAfter, 120_000)
    stack.figures("kill_during_webhooks_restarted", {
      seconds_to_capture: settledAfter.capturedMs / 1000,
      verdict: settledAfter.verdict,
    })
    expect(settledAfter.verdict.captured_once).toBe(after.orders.length)
    expect(settledAfter.verdict.doubled).toEqual([])
  })

  it("captures once, and records the check, a payment whose sync died with the shop (both servers, SIGKILL) while its capture waited for the platform", async () => {
    const { orders } = await waitingOrders(stack, 1, 1)
    const order = orders[0]!
    const statusPath = `${STATUS_PATH}${order.paymentId}`
    // Paid clear of the poll runs: a poll run reading this waiting payment in the middle would take one of the faults
    // below (seen in CI: the poll run's read held, the capture's confirmation let through, captured before the kill).
    await clearOfPollRuns(5_000)
    // The sync's own read goes through (a no-op fault takes it); the second read, the provider's confirmation inside
    // Medusa's capture, is held: the platform has answered, Medusa has recorded nothing yet.
    await stack.platform.control("POST", "/faults", { path: statusPath, method: "GET", count: 1, delay_ms: 0 })
    const hold = await stack.platform.control<{ id: number }>("POST", "/faults", {
      path: statusPath,
      method: "GET",
      count: 1,
      hold: true,
      when: "after",
      hold_max_ms: 120_000,
    })
    const paidAt = Date.now()
    await payAll(stack, [order])
    await waitUntil(
      async () =>
        (await stack.platform.control<{ faults: { id: number; held: number }[] }>("GET", "/faults")).faults.some(
          (f) => f.id === hold.id && f.held === 1
        ),
      60_000,
      "the capture's confirmation read held"
    )
    await Promise.all(stack.httpServers.map((server) => server.kill("SIGKILL")))
    const killedAt = Date.now()
    await stack.platform.control("DELETE", "/faults")
    const [atKill] = await stack.ledger.orders([order.orderId])
    expect(atKill!.captures).toBe(0)
    try {
      // The shop comes back redeployed as the production set-up the next block runs on (the same database, Redis and
      // load balancer): one start of each process, where restarting both shared servers and then redeploying them
      // cost two starts more. The dead sync's session lock lapses within its one-minute lease; a webhook retry or the
      // next poll run (now on the worker) runs the sync again from the start, and it finds the payment to capture.
      await stack.reshape(PRODUCTION_SET_UP)
      const deadline = endOfNextPollRun(killedAt + 60_000) + 60_000
      const settled = await settle(stack, [order], paidAt, deadline - Date.now())
      await quiet(stack, 60_000)
      const [after] = await stack.ledger.orders([order.orderId])
      // The sync that captured records its check as its last step, after the capture is visible: read it once that
      // sync has finished (a poll run's sync is not among the webhooks and events `quiet` waits for).
      let check = await stack.ledger.lastCheck(after!.session_id!)
      await waitUntil(
        async () =>
          ((check = await stack.ledger.lastCheck(after!.session_id!))?.last_checked_at?.getTime() ?? 0) > killedAt,
        60_000,
        "the capturing sync's check recorded"
      ).catch(() => undefined)
      const verdict = captureVerdict([after!], await stack.platform.payments())
      stack.figures("sync_killed_during_capture", {
        killed_at: new Date(killedAt).toISOString(),
        seconds_from_kill_to_capture: (paidAt + settled.capturedMs - killedAt) / 1000,
        verdict,
        last_check: check,
      })
      expect(verdict).toMatchObject({ captured_once: 1, lost: [], doubled: [] })
      expect(after!.captures).toBe(1)
      // The bookkeeping after the capture is complete too: the check that captured it is recorded.
      expect(check?.last_checked_at?.getTime() ?? 0).toBeGreaterThan(killedAt)
    } finally {
      await stack.platform.control("DELETE", "/faults")
    }
  })

  describe("two servers and a worker (Medusa's production set-up)", () => {
    let leftWaiting: Order[] = []

    beforeAll(async () => {
      // Redeployed by the test above when it ran; otherwise here.
      if (!stack.servers.some((s) => s.mode === "worker")) await stack.reshape(PRODUCTION_SET_UP)
      expect(stack.servers.map((s) => s.mode)).toEqual(["server", "server", "worker"])
    }, 300_000)

    it("recovers by itself when Redis is killed (SIGKILL) and restarted in the middle of payments and checkouts: no payment lost, none doubled, both servers keep working", async () => {
      const waiting = await waitingOrders(stack, 12)
      expect(waiting.failed.map((f) => f.error)).toEqual([])
      expect(waiting.orders).toHaveLength(12)
      stack.fanOut.reset()

      // Pay the 12 three at a time, one batch a second, and place 8 more orders meanwhile; Redis dies three seconds
      // in (as the last batch is paid) and comes back five seconds later.
      const paidAt = Date.now()
      const paying = (async () => {
        for (let i = 0; i < waiting.orders.length; i += 3) {
          await payAll(stack, waiting.orders.slice(i, i + 3))
          await sleep(1_000)
        }
      })()
      const placing = checkouts(stack, PLACED_DURING_REDIS_RESTART, 2)
      await sleep(3_000)
      const restartedAt = Date.now()
      await stack.demo.cluster.redis.restart({ signal: "SIGKILL", downMs: 5_000 })
      await paying
      const placed = await placing

      const settled = await settle(stack, waiting.orders, paidAt, 300_000)
      stack.figures("redis_restart", {
        restarted_at: new Date(restartedAt).toISOString(),
        down_seconds: 5,
        servers_running: Object.fromEntries(stack.servers.map((s) => [s.name, s.isRunning()])),
        checkouts_during: {
          placed: placed.orders.length,
          failed: placed.failed.map((f) => f.error),
          attempts: tally(placed.placed, (p) => String(p.attempts)),
        },
        seconds_to_all_captured: settled.capturedMs / 1000,
        verdict: settled.verdict,
        fan_out: stack.fanOut.stats(),
      })
      for (const server of stack.servers)
        expect({ server: server.name, running: server.isRunning() }).toEqual({ server: server.name, running: true })
      expect(settled.verdict.lost).toEqual([])
      expect(settled.verdict.doubled).toEqual([])
      expect(settled.verdict.captured_once).toBe(waiting.orders.length)
      // Every customer got an order (trying "Place order" again where a server failed), each with its reference.
      expect(placed.failed.map((f) => f.error)).toEqual([])
      expect(placed.orders).toHaveLength(PLACED_DURING_REDIS_RESTART)
      leftWaiting = placed.orders
    })

    it("runs the poll job once per interval (on the worker) after Redis restarted, and captures what was paid, the webhooks' syncs on the worker too", async () => {
      expect(leftWaiting.length).toBeGreaterThan(0)
      // While Redis was down a server processed what it could not hand over: only what follows counts.
      const serverSyncsBefore = stack.httpServers.map((server) => stack.logLines(server, SERVER_SYNC_LINES).length)
      const ids = leftWaiting.map((o) => o.paymentId)
      const counted = await countPollRuns(stack.platform, ids, 1)
      stack.figures("poll_runs_worker", {
        waiting: ids.length,
        poll_every_ms: POLL_EVERY_MS,
        runs: counted.runs,
        run_spans: counted.runSpans,
        read_twice: counted.readTwice,
      })
      // Each waiting payment read once in the poll run (the earlier tests' unpaid orders are read too, once each).
      for (const id of ids) expect({ id, reads: counted.reads[id] }).toEqual({ id, reads: [1] })
      expect(counted.readTwice).toEqual([])

      // Half of them paid here; the others stay waiting for the worker-kill test, which pays them (each captured once).
      const paid = leftWaiting.slice(0, Math.ceil(leftWaiting.length / 2))
      stack.unpaidOrders.push(...leftWaiting.slice(paid.length))
      const paidAt = Date.now()
      await payAll(stack, paid)
      const settled = await settle(stack, paid, paidAt, 180_000)
      stack.figures("after_redis_restart", {
        seconds_to_capture: settled.capturedMs / 1000,
        verdict: settled.verdict,
        fan_out: stack.fanOut.stats(),
      })
      expect(settled.verdict.lost).toEqual([])
      expect(settled.verdict.doubled).toEqual([])
      expect(settled.verdict.captured_once).toBe(paid.length)

      // The servers answer HTTP only: each delivery to the plugin's webhook route is recorded and answered there, and
      // its sync runs on the worker (handed over through the Redis event bus).
      const worker = stack.servers.find((s) => s.mode === "worker")!
      const syncedOnWorker = (paymentId: string) =>
        stack.logLines(worker, new RegExp(`payment ${paymentId}, answered by a server: processed on this worker`, "i"))
      await waitUntil(
        async () => paid.every((o) => syncedOnWorker(o.paymentId).length > 0),
        30_000,
        "every paid payment's webhook sync logged by the worker",
        async () => `not logged: ${paid.filter((o) => syncedOnWorker(o.paymentId).length === 0).length}`
      )
      for (const [i, server] of stack.httpServers.entries()) {
        const syncs = stack.logLines(server, SERVER_SYNC_LINES).length - serverSyncsBefore[i]!
        expect({ server: server.name, syncs }).toEqual({ server: server.name, syncs: 0 })
      }
    })

    it("runs the next poll run after the worker is killed (SIGKILL) in the middle of one: the dead poll run's lock lapses within its lease", async () => {
      // The poll run checks its payments itself (REFPAY_POLL_SPREAD=off): with its checks handed to the event bus, the
      // poll run's lock is held only while the poll run hands them out (a dead page is proved in refpay-status.spec.ts). Only
      // the worker runs the poll job and takes pages, so only it is redeployed with the setting.
      const worker = stack.server("worker")
      await worker.redeploy({ REFPAY_POLL_SPREAD: "off" })
      const waiting = await waitingOrders(stack, 4, 4)
      expect(waiting.failed.map((f) => f.error)).toEqual([])
      expect(waiting.orders).toHaveLength(4)
      const ids = waiting.orders.map((o) => o.paymentId)
      // Every status read answered 20 s late, so the worker's poll run is still running when it dies; the poll run has
      // started once its first status read reached the platform (the fault counts it on arrival).
      const readsHeld = 1_000
      await stack.platform.control("POST", "/faults", {
        path: STATUS_PATH,
        method: "GET",
        count: readsHeld,
        delay_ms: 20_000,
        when: "before",
      })
      let lease: number
      let killedAt: number
      try {
        // The next poll run (at most POLL_EVERY_SECONDS away) starts reading through the fault.
        await waitUntil(
          async () => (await stack.platform.control("GET", "/faults")).faults[0]?.remaining < readsHeld,
          POLL_EVERY_MS + POLL_RUN_MS,
          "the worker's poll run reading statuses"
        )
        lease = await redisTtl(stack.demo.cluster.redis.port, POLL_LOCK_KEY)
        await worker.kill("SIGKILL")
        killedAt = Date.now()
      } finally {
        await stack.platform.control("DELETE", "/faults")
      }
      // A dead poll run holds the lock for at most its lease (read before waiting it out, so a long one fails here).
      expect(lease).toBeGreaterThan(0)
      expect(lease).toBeLessThanOrEqual(POLL_RUN_LEASE_SECONDS)
      await worker.start()
      const restartedAt = Date.now()
      // The first whole poll run after the dead poll run's leases have run out: its poll run's lock's (above) and its syncs' session
      // locks (Medusa's locking default, 60 s). A poll run that takes the poll run's lock before the session locks lapse spends
      // up to the sync's 30 s lock wait on the sessions the dead poll run held (measured: the restarted worker's poll run took
      // the poll run's lock 30 s after the kill and read nothing for the next 30 s). So: until no session lock is left in
      // Redis and no poll run is running, then the next whole poll run.
      const redisPort = stack.demo.cluster.redis.port
      await sleep(Math.max(0, killedAt + lease * 1_000 - Date.now()))
      await waitUntil(
        async () => (await redisKeyCount(redisPort, SESSION_LOCK_KEYS)) === 0,
        60_000 + POLL_RUN_MS + 30_000,
        "the dead poll run's session locks lapsed"
      )
      const locksLapsedAt = Date.now()
      await waitUntil(
        async () => (await redisTtl(redisPort, POLL_LOCK_KEY)) === -2,
        POLL_RUN_MS + 30_000,
        "no poll run running"
      )
      const counted = await countPollRuns(stack.platform, ids, 1)
      stack.figures("poll_run_after_worker_killed", {
        killed_at: new Date(killedAt).toISOString(),
        poll_lock_seconds_left_at_kill: lease,
        restarted_after_s: (restartedAt - killedAt) / 1000,
        session_locks_lapsed_after_s: (locksLapsedAt - killedAt) / 1000,
        runs: counted.runs,
        run_spans: counted.runSpans,
        skipped_by_poll_lock: stack.logLines(worker, /previous run is still running/).length,
      })
      for (const id of ids) expect({ id, read: counted.reads[id]![0]! > 0 }).toEqual({ id, read: true })

      // Paid, so nothing is left waiting.
      const paidAt = Date.now()
      await payAll(stack, waiting.orders)
      const settled = await settle(stack, waiting.orders, paidAt, 180_000)
      expect(settled.verdict.lost).toEqual([])
      expect(settled.verdict.doubled).toEqual([])
      expect(settled.verdict.captured_once).toBe(waiting.orders.length)
    })
  })
})

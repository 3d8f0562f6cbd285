import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { performance } from "node:perf_hooks"
import { Client } from "pg"
import { completeCart, prepareCart } from "../integration-tests/fixtures/checkout"
import type { SeededStore } from "../integration-tests/fixtures/store"
import { paymentIdFor } from "../src/rules/identifiers"
import { burstBench, firstAnswers, pay } from "./burst"
import { CaptureWatcher } from "./capture-watcher"
import { startMedusaApp, type MedusaApp } from "./medusa-app-process"
import { pollBench, type PollFigures, type PollSizes } from "./poll"
import { startSandboxProcess, type SandboxProcess } from "./sandbox-process"
import { countStatements, writeStatementList } from "./sql-stats"
import { loopbackApi, sandboxControl, type ShopApi } from "./shop-api"
import { median, percentile, round } from "./stats"

/**
 * The shop owner's figures, on a real Medusa app with the plugin against the sandbox, all on loopback:
 *  - a full store-API checkout and its cart completion with REFPAY vs pp_system_default (same app, interleaved);
 *  - what the platform receives per REFPAY checkout;
 *  - how fast a paid order reads captured after the platform's APPROVED webhook, through either webhook route, one
 *    at a time, sixteen in flight and a hundred at once;
 *  - what a poll run costs with 100 to 10,000 waiting payments, and how long any of them goes unchecked;
 *  - the server's memory.
 * PostgreSQL (throwaway), the sandbox and Medusa are started here and stopped whatever happens.
 */

export const REFPAY = "pp_refpay_refpay"
export const SYSTEM = "pp_system_default"
const WEBHOOK_SECRET = "bench-webhook-secret-not-a-secret"

export interface ShopSizes {
  checkoutWarmup: number
  /** Checkouts per provider after warm-up (interleaved). */
  checkoutSamples: number
  /** Orders paid one at a time through /hooks/refpay. */
  webhookSingles: number
  /** Orders paid one at a time through Medusa's /hooks/payment/refpay_refpay (5 s each, by design). */
  medusaRouteSamples: number
  burst: number
  /** Paid at once with the platform waiting at most 5 s for each answer (`--only=burst500`). */
  largeBurst: number
  sustained: number
  sustainedInFlight: number
  poll: PollSizes
}

export const FULL_SIZES: ShopSizes = {
  checkoutWarmup: 3,
  checkoutSamples: 20,
  webhookSingles: 30,
  medusaRouteSamples: 3,
  burst: 100,
  largeBurst: 500,
  sustained: 64,
  sustainedInFlight: 16,
  poll: { runs: [100, 1_000, 10_000], ages: [10_000] },
}

/** The poll job at the size of Portugal's largest shops (`--only=poll100k` runs it alone, after a poll run at 100). */
export const LARGEST_SHOP_WAITING = 100_000

function withLargestShop(poll: PollSizes, usual: boolean, largest: boolean): PollSizes {
  if (!largest) return poll
  if (!usual) return { runs: [poll.runs[0]!, LARGEST_SHOP_WAITING], ages: [LARGEST_SHOP_WAITING] }
  return { runs: [...poll.runs, LARGEST_SHOP_WAITING], ages: [...poll.ages, LARGEST_SHOP_WAITING] }
}

export const QUICK_SIZES: ShopSizes = {
  checkoutWarmup: 1,
  checkoutSamples: 4,
  webhookSingles: 6,
  medusaRouteSamples: 1,
  burst: 20,
  largeBurst: 50,
  sustained: 32,
  sustainedInFlight: 16,
  poll: { runs: [100, 300, 1_000], ages: [1_000] },
}

export interface ShopFigures extends PollFigures {
  checkout_ratio_refpay_vs_system: number
  complete_ratio_refpay_vs_system: number
  checkout_refpay_p50_ms: number
  checkout_system_p50_ms: number
  complete_refpay_p50_ms: number
  complete_system_p50_ms: number
  /** Median of the per-round ratios (REFPAY run / the system run of the same round). */
  checkout_ratio_paired: number
  complete_ratio_paired: number
  /**
   * The control: the cart-preparation step (cart, item, addresses, shipping) is the same calls for both providers,
   * so its REFPAY / system ratio is the noise floor of this run; a checkout ratio that misses its target by less
   * than this one's distance from 1 is not a measured difference.
   */
  checkout_control_ratio_same_steps: number
  /** CPU time of the Medusa process per checkout, the work it leaves behind included. */
  checkout_server_cpu_refpay_p50_ms: number
  checkout_server_cpu_system_p50_ms: number
  checkout_server_cpu_ratio_refpay_vs_system: number
  platform_calls_per_checkout: number
  /** SQL statements the app sends for one checkout, the work it leaves behind included. */
  db_statements_per_checkout_refpay: number
  db_statements_per_checkout_system: number
  /** SQL statements for one APPROVED webhook through /hooks/refpay, to the capture and the answer. */
  db_statements_per_capture: number
  webhook_to_captured_p50_ms: number
  webhook_to_captured_p99_ms: number
  /** The platform's delivery to /hooks/refpay until its answer (the sync done), one at a time: what a platform timeout sees. */
  webhook_answered_p50_ms: number
  webhook_to_captured_medusa_door_p50_ms: number
  webhooks_per_second: number
  webhook_burst_capture_s: number
  /** Of the burst's deliveries, how many the sandbox gave up waiting for (10 s) and sent again. */
  webhook_burst_first_attempts_unanswered: number
  server_rss_mb: number
}

export interface ShopNotes {
  /** Sandbox requests per REFPAY checkout, by path. */
  checkoutCalls: Record<string, number>
  /** Sandbox requests per capture through the plugin's webhook route, by path. */
  captureCalls: Record<string, number>
  checkoutSamples: number
  webhookSamples: number
}

export interface ShopBenchOptions {
  sizes: ShopSizes
  /** node --cpu-prof for the Medusa app, into this folder. */
  cpuProfileDir?: string
  /** Phases to run (default all): checkout, webhooks, poll. */
  only?: Set<string>
  log: (line: string) => void
}

interface PlacedOrder {
  orderId: string
  sessionId: string
  paymentId: string
}

/** The store-API calls of a checkout, timed one by one. */
const STEPS = ["cart, item, addresses, shipping", "payment collection", "payment session", "complete"] as const
/** The step no payment provider takes part in: the control of the checkout ratios. */
const CART_PREPARATION = STEPS.indexOf("cart, item, addresses, shipping")

/** A store-API checkout as a storefront makes it: cart with item and addresses, shipping, payment session, complete. */
async function checkout(api: ShopApi, store: SeededStore, providerId: string) {
  const headers = { headers: { "x-publishable-api-key": store.publishableKey } }
  const marks = [performance.now()]
  const cart = await prepareCart(api, store)
  marks.push(performance.now())
  const { data } = await api.post("/store/payment-collections", { cart_id: cart.id }, headers)
  marks.push(performance.now())
  const { data: selected } = await api.post(
    `/store/payment-collections/${data.payment_collection.id}/payment-sessions`,
    { provider_id: providerId },
    headers
  )
  marks.push(performance.now())
  const completion = await completeCart(api, store, cart.id)
  marks.push(performance.now())
  if (completion?.type !== "order")
    throw new Error(`${providerId} checkout did not make an order: ${JSON.stringify(completion).slice(0, 500)}`)
  const sessions = selected.payment_collection.payment_sessions as { id: string; provider_id: string }[]
  const session = sessions.find((s) => s.provider_id === providerId)!
  return {
    totalMs: marks[marks.length - 1]! - marks[0]!,
    completeMs: marks[4]! - marks[3]!,
    stepMs: STEPS.map((_, i) => marks[i + 1]! - marks[i]!),
    order: { orderId: completion.order.id as string, sessionId: session.id, paymentId: paymentIdFor(session.id, 0) },
  }
}

function countByPath(requests: { path: string }[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const r of requests) {
    const key = r.path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "{id}")
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

function perUnit(counts: Record<string, number>, units: number): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, round(v / units, 2)]))
}

/** Quiet again after a checkout: the webhooks it caused have been answered and its subscribers have had time to run. */
async function quiesce(ctx: Context): Promise<void> {
  await ctx.settleWebhooks()
  await new Promise((resolve) => setTimeout(resolve, 100))
}

async function checkoutPhase(ctx: Context) {
  const { api, store, sandbox, sizes, log } = ctx
  const series = () => ({
    total: [] as number[],
    complete: [] as number[],
    cpu: [] as number[],
    steps: STEPS.map(() => [] as number[]),
  })
  const refpay = series()
  const system = series()
  const rounds = sizes.checkoutWarmup + sizes.checkoutSamples
  for (let i = 0; i < rounds; i++) {
    const measured = i >= sizes.checkoutWarmup
    if (i === sizes.checkoutWarmup) await sandboxControl(sandbox.url, "DELETE", "/requests")
    // Alternate which provider goes first, so neither always runs on the warmer app.
    const order = i % 2 === 0 ? [REFPAY, SYSTEM] : [SYSTEM, REFPAY]
    for (const providerId of order) {
      // Each checkout starts on a quiet server; its CPU time includes the work it leaves behind (webhooks,
      // subscribers), so what REFPAY costs the server shows even where the shopper does not wait for it.
      const cpuBefore = await ctx.app.cpuMs()
      const run = await checkout(api, store, providerId)
      await quiesce(ctx)
      const cpuMs = (await ctx.app.cpuMs()) - cpuBefore
      if (providerId === REFPAY) ctx.orders.push(run.order)
      if (!measured) continue
      const into = providerId === REFPAY ? refpay : system
      into.total.push(run.totalMs)
      into.complete.push(run.completeMs)
      into.cpu.push(cpuMs)
      run.stepMs.forEach((ms, step) => into.steps[step]!.push(ms))
    }
  }
  const platformRequests = (await sandboxControl<{ requests: { path: string }[] }>(sandbox.url, "GET", "/requests"))
    .requests
  const n = sizes.checkoutSamples
  // What each checkout asks of the database, the work it leaves behind included (counted apart from the timed runs).
  const statements: Record<string, Awaited<ReturnType<typeof countStatements>>> = {}
  for (const providerId of [REFPAY, SYSTEM]) {
    statements[providerId] = await countStatements(ctx.db, ctx.pgLogFile, async () => {
      const run = await checkout(api, store, providerId)
      if (providerId === REFPAY) ctx.orders.push(run.order)
      await quiesce(ctx)
    })
  }
  writeStatementList("checkout-refpay", statements[REFPAY]!)
  writeStatementList("checkout-system", statements[SYSTEM]!)
  const extra = Object.entries(statements[REFPAY]!.byTable)
    .map(([table, count]) => [table, count - (statements[SYSTEM]!.byTable[table] ?? 0)] as const)
    .filter(([, diff]) => diff !== 0)
    .sort((a, b) => b[1] - a[1])
  log(
    `    SQL statements per checkout: REFPAY ${statements[REFPAY]!.total}, system ${statements[SYSTEM]!.total}; REFPAY's difference by table: ${extra.map(([t, d]) => `${t} ${d > 0 ? "+" : ""}${d}`).join(", ")}`
  )
  log(
    `  checkout: ${n} each after ${sizes.checkoutWarmup} warm-up; REFPAY p50 ${round(median(refpay.total), 1)} ms, system ${round(median(system.total), 1)} ms`
  )
  STEPS.forEach((step, i) => {
    log(
      `    ${step}: REFPAY p50 ${round(median(refpay.steps[i]!), 1)} ms, system ${round(median(system.steps[i]!), 1)} ms`
    )
  })
  log(
    `    server CPU per checkout: REFPAY p50 ${round(median(refpay.cpu), 1)} ms, system ${round(median(system.cpu), 1)} ms`
  )
  return {
    checkout_ratio_refpay_vs_system: round(median(refpay.total) / median(system.total)),
    complete_ratio_refpay_vs_system: round(median(refpay.complete) / median(system.complete)),
    checkout_refpay_p50_ms: round(median(refpay.total), 1),
    checkout_system_p50_ms: round(median(system.total), 1),
    complete_refpay_p50_ms: round(median(refpay.complete), 1),
    complete_system_p50_ms: round(median(system.complete), 1),
    // The same runs compared round by round (each REFPAY checkout with the system one next to it): steadier when
    // the machine's load drifts during the run.
    checkout_ratio_paired: round(median(refpay.total.map((ms, i) => ms / system.total[i]!))),
    complete_ratio_paired: round(median(refpay.complete.map((ms, i) => ms / system.complete[i]!))),
    checkout_control_ratio_same_steps: round(
      median(refpay.steps[CART_PREPARATION]!) / median(system.steps[CART_PREPARATION]!)
    ),
    checkout_server_cpu_refpay_p50_ms: round(median(refpay.cpu), 1),
    checkout_server_cpu_system_p50_ms: round(median(system.cpu), 1),
    checkout_server_cpu_ratio_refpay_vs_system: round(median(refpay.cpu) / median(system.cpu)),
    platform_calls_per_checkout: round(platformRequests.length / n, 2),
    db_statements_per_checkout_refpay: statements[REFPAY]!.total,
    db_statements_per_checkout_system: statements[SYSTEM]!.total,
    checkoutCalls: perUnit(countByPath(platformRequests), n),
  }
}

/** More REFPAY orders for the webhook phases, a few checkouts in flight (not timed). */
async function placeOrders(ctx: Context, count: number): Promise<void> {
  const place = async () => ctx.orders.push((await checkout(ctx.api, ctx.store, REFPAY)).order)
  // The first alone: on a fresh database (`--only=webhooks`) it makes the guest customer that concurrent carts
  // with the same e-mail would otherwise all try to create (Medusa refuses the second).
  await place()
  let left = count - 1
  const worker = async () => {
    while (left > 0) {
      left--
      await place()
    }
  }
  await Promise.all(Array.from({ length: 4 }, worker))
  await ctx.settleWebhooks()
}

async function webhookPhase(ctx: Context) {
  const { sizes, log } = ctx
  const needed = sizes.webhookSingles + 1 + sizes.medusaRouteSamples + sizes.burst + sizes.sustained
  if (ctx.orders.length < needed) {
    const start = performance.now()
    const count = needed - ctx.orders.length
    await placeOrders(ctx, count)
    log(`  placed ${count} more REFPAY orders for the webhook runs (${round((performance.now() - start) / 1000, 1)} s)`)
  }
  const take = (n: number) => ctx.orders.splice(0, n)

  // The plugin's webhook route (/hooks/refpay), one at a time: the platform's delivery is answered once the sync
  // has run.
  await sandboxControl(ctx.sandbox.url, "DELETE", "/requests")
  const singles: number[] = []
  const singleOrders = take(sizes.webhookSingles)
  for (const order of singleOrders) {
    const start = await pay(ctx.sandbox.url, order)
    singles.push((await ctx.watcher.captured(order.sessionId)) - start)
    await ctx.settleWebhooks()
  }
  const singleAnswers = await firstAnswers(ctx.sandbox.url, singleOrders)
  const captureRequests = (
    await sandboxControl<{ requests: { path: string }[] }>(ctx.sandbox.url, "GET", "/requests")
  ).requests.filter((r) => !r.path.startsWith("/dpm/payments-gwproxy"))
  log(
    `  plugin's webhook route: ${singles.length} captures one at a time, p50 ${round(median(singles), 1)} ms, max ${round(Math.max(...singles), 1)} ms`
  )
  const [counted] = take(1)
  const captureStatements = await countStatements(ctx.db, ctx.pgLogFile, async () => {
    await pay(ctx.sandbox.url, counted!)
    await ctx.watcher.captured(counted!.sessionId)
    await quiesce(ctx)
  })
  log(
    `    SQL statements per capture: ${captureStatements.total} (${Object.entries(captureStatements.byTable)
      .sort((a, b) => b[1] - a[1])
      .map(([t, n]) => `${t} ${n}`)
      .join(", ")}; listed in ${writeStatementList("capture", captureStatements)})`
  )

  // Medusa's webhook route (/hooks/payment/refpay_refpay): Medusa handles its webhook event 5 s after receipt, on
  // purpose.
  await ctx.webhookUrl(`${ctx.app.url}/hooks/payment/refpay_refpay`)
  const viaMedusaRoute: number[] = []
  try {
    await Promise.all(
      take(sizes.medusaRouteSamples).map(async (order, i) => {
        // Spaced out so one sync does not wait for another's.
        await new Promise((resolve) => setTimeout(resolve, i * 1_500))
        const start = await pay(ctx.sandbox.url, order)
        viaMedusaRoute.push((await ctx.watcher.captured(order.sessionId, 30_000)) - start)
      })
    )
  } finally {
    await ctx.webhookUrl(`${ctx.app.url}/hooks/refpay`)
  }
  log(`  Medusa's webhook route: ${viaMedusaRoute.length} captures, p50 ${round(median(viaMedusaRoute), 1)} ms`)

  // Sixteen in flight, each worker paying its next order once its previous one reads captured.
  const sustainedOrders = take(sizes.sustained)
  let next = 0
  const sustainedStart = performance.now()
  const worker = async () => {
    while (next < sustainedOrders.length) {
      const order = sustainedOrders[next++]!
      await pay(ctx.sandbox.url, order)
      await ctx.watcher.captured(order.sessionId)
    }
  }
  await Promise.all(Array.from({ length: sizes.sustainedInFlight }, worker))
  const perSecond = sustainedOrders.length / ((performance.now() - sustainedStart) / 1000)
  log(`  sustained: ${sustainedOrders.length} captures, ${sizes.sustainedInFlight} in flight: ${round(perSecond, 1)}/s`)
  await ctx.settleWebhooks()

  // A hundred paid at once.
  const burstOrders = take(sizes.burst)
  const burstStart = performance.now()
  const capturedAt = await Promise.all(
    burstOrders.map(async (order) => {
      await pay(ctx.sandbox.url, order)
      return ctx.watcher.captured(order.sessionId, 120_000)
    })
  )
  const burstSeconds = (Math.max(...capturedAt) - burstStart) / 1000
  log(`  burst: ${burstOrders.length} paid at once, all captured after ${round(burstSeconds, 2)} s`)
  await ctx.settleWebhooks()
  const burstAnswers = await firstAnswers(ctx.sandbox.url, burstOrders)
  const burstTimedOut = burstAnswers.filter((a) => a.status === undefined).length
  log(
    `    their deliveries: first attempt answered p50 ${round(median(burstAnswers.map((a) => a.ms)), 1)} ms, ${burstTimedOut} not answered within the sandbox's 10 s and sent again`
  )

  return {
    db_statements_per_capture: captureStatements.total,
    webhook_to_captured_p50_ms: round(median(singles), 1),
    webhook_to_captured_p99_ms: round(percentile(singles, 99), 1),
    webhook_answered_p50_ms: round(median(singleAnswers.map((a) => a.ms)), 1),
    webhook_to_captured_medusa_door_p50_ms: round(median(viaMedusaRoute), 1),
    webhooks_per_second: round(perSecond, 1),
    webhook_burst_first_attempts_unanswered: burstTimedOut,
    webhook_burst_capture_s: round(burstSeconds, 2),
    captureCalls: perUnit(countByPath(captureRequests), singles.length),
    webhookSamples: singles.length,
  }
}

/** What scripts/lib/postgres.js's startPostgres resolves with (a throwaway server on localhost). */
interface Postgres {
  port: number
  user: string
  password: string
  stop(): Promise<void>
  killNow(): void
}

function burstContext(ctx: Context) {
  return {
    app: ctx.app,
    db: ctx.db,
    sandboxUrl: ctx.sandbox.url,
    watcher: ctx.watcher,
    log: ctx.log,
    placeOrders: async (count: number) => {
      await placeOrders(ctx, count)
      return ctx.orders.splice(0, count)
    },
    settleWebhooks: ctx.settleWebhooks,
  }
}

interface Context {
  api: ShopApi
  store: SeededStore
  sandbox: SandboxProcess
  app: MedusaApp
  db: Client
  /** PostgreSQL's log (statements are counted from it). */
  pgLogFile: string
  watcher: CaptureWatcher
  sizes: ShopSizes
  orders: PlacedOrder[]
  log: (line: string) => void
  webhookUrl(url: string | null): Promise<void>
  /** Waits until the sandbox has no webhook delivery pending (at most `timeoutMs`, 30 s unless given). */
  settleWebhooks(timeoutMs?: number): Promise<void>
}

export async function shopBench(
  options: ShopBenchOptions
): Promise<{ figures: Partial<ShopFigures>; notes: Partial<ShopNotes> }> {
  const { log, sizes } = options
  const only = options.only
  const runs = (phase: string) => !only || only.has(phase)
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "refpay-bench-"))
  // As root, PostgreSQL runs as `postgres` and must reach its data folder inside.
  fs.chmodSync(workDir, 0o755)
  // Plain-Node tooling (CommonJS), shared with npm test.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startPostgres } = require("../scripts/lib/postgres") as {
    startPostgres: (options: object) => Promise<Postgres>
  }
  let postgres: Postgres | undefined
  let sandbox: SandboxProcess | undefined
  let app: MedusaApp | undefined
  let db: Client | undefined
  const killPostgres = () => {
    postgres?.killNow()
    fs.rmSync(workDir, { recursive: true, force: true })
  }
  process.once("exit", killPostgres)
  try {
    const started = performance.now()
    const pgLogFile = path.join(workDir, "postgres.log")
    postgres = await startPostgres({ dataDir: path.join(workDir, "pgdata"), logFile: pgLogFile })
    sandbox = await startSandboxProcess({ env: { REFPAY_SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET } })
    app = await startMedusaApp({
      db: { host: "localhost", port: postgres.port, user: postgres.user, password: postgres.password },
      logFile: path.join(workDir, "medusa.log"),
      cpuProfileDir: options.cpuProfileDir,
      env: {
        REFPAY_ENVIRONMENT: "sandbox",
        REFPAY_TOKEN_INTERFACE: "t1",
        REFPAY_AUTH_URL: sandbox.authUrl,
        REFPAY_BACKOFFICE_URL: `${sandbox.url}/backoffice`,
        REFPAY_PAYMENTS_URL: sandbox.paymentsUrl,
        REFPAY_CLIENT_ID: "sandbox-client-id",
        REFPAY_CLIENT_SECRET: "sandbox-client-secret",
        REFPAY_CHANNEL: "sandbox-channel",
        REFPAY_SCOPE: "payments",
        REFPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    })
    log(`  Medusa app up on ${app.url} (pid ${app.pid}) after ${round((performance.now() - started) / 1000, 1)} s`)
    db = new Client({
      host: "localhost",
      port: postgres.port,
      user: postgres.user,
      password: postgres.password,
      database: app.ready.dbName,
    })
    await db.connect()
    if (process.env.BENCH_SLOW_SQL_MS) {
      // Statements slower than this go to the throwaway server's log (kept with BENCH_KEEP_LOGS=1), with their plans'
      // durations: where a slow figure's time goes.
      await db.query(`alter system set log_min_duration_statement = ${Number(process.env.BENCH_SLOW_SQL_MS)}`)
      await db.query("select pg_reload_conf()")
    }
    const sandboxUrl = sandbox.url
    const ctx: Context = {
      api: loopbackApi(app.ready.port),
      store: app.ready.store,
      sandbox,
      app,
      db,
      pgLogFile,
      watcher: new CaptureWatcher(db),
      sizes,
      orders: [],
      log,
      webhookUrl: async (url) => {
        await sandboxControl(sandboxUrl, "POST", "/webhooks/config", { url })
      },
      settleWebhooks: async (timeoutMs = 30_000) => {
        const deadline = performance.now() + timeoutMs
        while (performance.now() < deadline) {
          const view = await sandboxControl<{ events: { state: string }[] }>(sandboxUrl, "GET", "/webhooks")
          if (!view.events.some((e) => e.state === "pending")) return
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      },
    }
    // BENCH_CHECKOUT_WEBHOOKS=off (diagnostics): no webhooks during the checkout runs.
    await ctx.webhookUrl(process.env.BENCH_CHECKOUT_WEBHOOKS === "off" ? null : `${app.url}/hooks/refpay`)

    const figures: Partial<ShopFigures> = {}
    const notes: Partial<ShopNotes> = {}
    if (runs("checkout")) {
      const { checkoutCalls, ...checkoutFigures } = await checkoutPhase(ctx)
      Object.assign(figures, checkoutFigures)
      notes.checkoutCalls = checkoutCalls
      notes.checkoutSamples = sizes.checkoutSamples
      figures.server_rss_mb = round((await app.memory()).rss / 1024 / 1024, 1)
    }
    await ctx.webhookUrl(`${app.url}/hooks/refpay`)
    if (runs("webhooks")) {
      const { captureCalls, webhookSamples, ...webhookFigures } = await webhookPhase(ctx)
      Object.assign(figures, webhookFigures)
      notes.captureCalls = captureCalls
      notes.webhookSamples = webhookSamples
    }
    if (runs("burst500")) Object.assign(figures, await burstBench(burstContext(ctx), sizes.largeBurst))
    if (runs("poll") || runs("poll100k")) {
      const pollSizes = withLargestShop(sizes.poll, runs("poll"), runs("poll100k") && sizes.poll !== QUICK_SIZES.poll)
      Object.assign(
        figures,
        await pollBench({ app, db, pgLogFile, sandbox, sizes: pollSizes, log, webhookUrl: ctx.webhookUrl })
      )
    }
    if (figures.server_rss_mb === undefined) figures.server_rss_mb = round((await app.memory()).rss / 1024 / 1024, 1)
    return { figures, notes }
  } finally {
    await db?.end().catch(() => undefined)
    await app?.stop().catch((error) => log(`  could not stop the Medusa app: ${error}`))
    await sandbox?.stop()
    await postgres?.stop()
    process.off("exit", killPostgres)
    if (process.env.BENCH_KEEP_LOGS) log(`  logs kept in ${workDir}`)
    else fs.rmSync(workDir, { recursive: true, force: true })
  }
}

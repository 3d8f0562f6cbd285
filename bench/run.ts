import { randomUUID } from "node:crypto"
import os from "node:os"
import path from "node:path"
import { performance } from "node:perf_hooks"
import { Pool, request } from "undici"
import { createRefpayClient } from "../src/lib/refpay"
import { startSandboxProcess, type SandboxProcess } from "./sandbox-process"
import { sandboxControl } from "./shop-api"
import { FULL_SIZES, LARGEST_SHOP_WAITING, QUICK_SIZES, shopBench, type ShopFigures, type ShopNotes } from "./shop"
import { percentile, round } from "./stats"
import { POLL_INTERVAL_MINUTES } from "./poll"
import { clusterFigures } from "./cluster"

/**
 * `npm run bench [-- --json] [-- --quick] [-- --only=client,checkout,webhooks,burst500,poll,poll100k,cluster] [-- --cpu-prof] [-- --checkouts=N]`,
 * over loopback only (never another address). The platform client against the sandbox:
 *  (a) token requests made for 1,000 concurrent payment creations (target: exactly 1), and for 1,000 started just
 *      after the token expired (on the platform's clock, and on the client's) (target: 1);
 *  (b) p50/p99 latency of a payment creation through the client vs a bare undici request (target ratio <= 1.10);
 *  (c) sandbox throughput in requests per second (status reads, 32 in flight);
 *  (d) heap the client retains after 10,000 creations (target < 5 MB).
 * Then the shop owner's figures on a real Medusa app (bench/shop.ts): checkout with REFPAY vs the system provider,
 * platform calls per checkout, webhook to captured, the poll job with up to 10,000 waiting payments, server memory.
 * Then a poll run's checks distributed over one and two processes of a cluster (bench/cluster.ts).
 * Every loop is bounded in count and time.
 */

const CREDENTIALS = { clientId: "sandbox-client-id", clientSecret: "sandbox-client-secret" }
const QUICK = process.argv.includes("--quick")
const CONCURRENT_CREATIONS = 1_000
const LATENCY_SAMPLES = QUICK ? 1_000 : 8_000
const WARMUP = QUICK ? 200 : 500
const THROUGHPUT_SECONDS = QUICK ? 2 : 5
const THROUGHPUT_IN_FLIGHT = 32
const HEAP_CREATIONS = 10_000

let orderSeq = 0
function creationInput() {
  orderSeq += 1
  return {
    paymentId: randomUUID(),
    orderId: `bench-${process.pid}-${orderSeq}`,
    amountCents: 1999,
    idempotencyKey: randomUUID(),
  }
}

function client(sandbox: SandboxProcess) {
  return createRefpayClient({
    tokenInterface: "t1",
    authUrl: sandbox.authUrl,
    paymentsUrl: sandbox.paymentsUrl,
    ...CREDENTIALS,
  })
}

async function tokenRequestsForConcurrentCreations(sandbox: SandboxProcess): Promise<number> {
  const refpay = client(sandbox)
  try {
    await Promise.all(Array.from({ length: CONCURRENT_CREATIONS }, () => refpay.createPayment(creationInput())))
    return refpay.tokenRequests()
  } finally {
    await refpay.close()
  }
}

async function fetchToken(sandbox: SandboxProcess): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: CREDENTIALS.clientId,
    client_secret: CREDENTIALS.clientSecret,
  })
  const response = await request(`${sandbox.authUrl}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  })
  return ((await response.body.json()) as { access_token: string }).access_token
}

/**
 * The same creation with nothing but undici: the floor the client's overhead is measured against. Like the
 * client, it builds and serializes the body and parses the answer inside the timed section.
 */
function bareCreation(pool: Pool, token: string) {
  const input = creationInput()
  return async () => {
    const body = JSON.stringify({
      idempotency_key: input.idempotencyKey,
      request_id: randomUUID(),
      order_id: input.orderId,
      data: {
        amount: input.amountCents,
        currency: "EUR",
        payment: { payment_id: input.paymentId, payment_method: "CASH_PAYMENT", brand: "REFPAY" },
      },
    })
    const response = await pool.request({
      method: "POST",
      path: "/dpm/payments-gwproxy/v2/payments",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    })
    await response.body.json()
    if (response.statusCode !== 201) throw new Error(`bare creation answered ${response.statusCode}`)
  }
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

async function creationLatency(sandbox: SandboxProcess) {
  const refpay = client(sandbox)
  const pool = new Pool(sandbox.paymentsUrl, { connections: 4 })
  const token = await fetchToken(sandbox)
  const clientSamples: number[] = []
  const bareSamples: number[] = []
  try {
    // Interleaved, one request at a time: both see the same server state, and drift hits both alike.
    for (let i = 0; i < WARMUP + LATENCY_SAMPLES; i++) {
      const input = creationInput()
      const viaClient = await timed(() => refpay.createPayment(input))
      const bare = await timed(bareCreation(pool, token))
      if (i >= WARMUP) {
        clientSamples.push(viaClient)
        bareSamples.push(bare)
      }
    }
  } finally {
    await refpay.close()
    await pool.close()
  }
  return {
    client_p50_ms: percentile(clientSamples, 50),
    client_p99_ms: percentile(clientSamples, 99),
    bare_p50_ms: percentile(bareSamples, 50),
    bare_p99_ms: percentile(bareSamples, 99),
  }
}

async function sandboxThroughput(sandbox: SandboxProcess): Promise<number> {
  const pool = new Pool(sandbox.paymentsUrl, { connections: THROUGHPUT_IN_FLIGHT })
  const token = await fetchToken(sandbox)
  const paymentId = randomUUID()
  await bareCreationFor(pool, token, paymentId)
  const deadline = performance.now() + THROUGHPUT_SECONDS * 1000
  let completed = 0
  const worker = async () => {
    while (performance.now() < deadline) {
      const response = await pool.request({
        method: "GET",
        path: `/dpm/hub-payment-info/v1/payments/info/${paymentId}`,
        headers: { authorization: `Bearer ${token}` },
      })
      await response.body.dump()
      if (response.statusCode === 200) completed += 1
    }
  }
  const start = performance.now()
  await Promise.all(Array.from({ length: THROUGHPUT_IN_FLIGHT }, worker))
  const seconds = (performance.now() - start) / 1000
  await pool.close()
  return completed / seconds
}

async function bareCreationFor(pool: Pool, token: string, paymentId: string): Promise<void> {
  const response = await pool.request({
    method: "POST",
    path: "/dpm/payments-gwproxy/v2/payments",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      idempotency_key: randomUUID(),
      request_id: randomUUID(),
      order_id: `bench-rps-${process.pid}`,
      data: {
        amount: 500,
        currency: "EUR",
        payment: { payment_id: paymentId, payment_method: "CASH_PAYMENT", brand: "REFPAY" },
      },
    }),
  })
  await response.body.dump()
}

async function issuedTokens(sandbox: SandboxProcess): Promise<number> {
  return (await sandboxControl<{ issued: number }>(sandbox.url, "GET", "/tokens")).issued
}

/**
 * Token requests when 1,000 creations start just after the token expired, two ways: on the platform's clock (the
 * client still believes its token valid; every call gets a 401 and the client must take one new token for all of
 * them) and on the client's own clock (the token's lifetime is over; the client knows before sending). Both clocks
 * are moved rather than waited for.
 */
async function tokenRequestsAfterExpiry(sandbox: SandboxProcess): Promise<{ platformClock: number; lifetime: number }> {
  let offsetMs = 0
  const clientClock = createRefpayClient({
    tokenInterface: "t1",
    authUrl: sandbox.authUrl,
    paymentsUrl: sandbox.paymentsUrl,
    ...CREDENTIALS,
    now: () => Date.now() + offsetMs,
  })
  let lifetime: number
  try {
    await clientClock.createPayment(creationInput())
    offsetMs = 3_601_000
    const before = await issuedTokens(sandbox)
    await Promise.all(Array.from({ length: CONCURRENT_CREATIONS }, () => clientClock.createPayment(creationInput())))
    lifetime = (await issuedTokens(sandbox)) - before
  } finally {
    await clientClock.close()
  }
  const refpay = client(sandbox)
  try {
    await refpay.createPayment(creationInput())
    await sandboxControl(sandbox.url, "POST", "/clock", { advance_ms: 3_601_000 })
    const before = await issuedTokens(sandbox)
    await Promise.all(Array.from({ length: CONCURRENT_CREATIONS }, () => refpay.createPayment(creationInput())))
    return { platformClock: (await issuedTokens(sandbox)) - before, lifetime }
  } finally {
    await refpay.close()
    await sandboxControl(sandbox.url, "POST", "/clock", { set: Date.now() }).catch(() => undefined)
  }
}

function forceGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error("run node with --expose-gc (npm run bench does)")
  gc()
  gc()
}

/** Heap still in use, after a full GC, by a client that has made 10,000 creations (the client kept alive). */
async function clientHeapRetained(sandbox: SandboxProcess): Promise<number> {
  forceGc()
  const before = process.memoryUsage().heapUsed
  const refpay = client(sandbox)
  try {
    let left = HEAP_CREATIONS
    const worker = async () => {
      while (left-- > 0) await refpay.createPayment(creationInput())
    }
    await Promise.all(Array.from({ length: 16 }, worker))
    forceGc()
    const after = process.memoryUsage().heapUsed
    return Math.max(0, after - before) / 1024 / 1024
  } finally {
    await refpay.close()
  }
}

type Row = [figure: string, value: string, target: string, mark: string]

function printTable(rows: Row[]): void {
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)))
  for (const row of rows)
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join("  ")
        .trimEnd()
    )
}

/** A row with its target: `ok` says whether the value meets it; a missed target is marked. */
function row(figure: string, value: number | undefined, target = "", ok?: (v: number) => boolean): Row {
  if (value === undefined || Number.isNaN(value)) return [figure, "-", target, ""]
  const mark = ok === undefined ? "" : ok(value) ? "ok" : "MISSED"
  return [figure, String(value), target, mark]
}

/** The large burst's rows (`--only=burst500`): the platform waits at most 5 s for each answer. */
function largeBurstRows(size: number, f: (key: string) => number | undefined): Row[] {
  const key = (name: string) => f(`webhook_burst_${size}_${name}`)
  return [
    row(`${size} payments paid at once, the platform waiting 5 s: all captured after (s)`, key("capture_s")),
    row(
      "  their first deliveries not answered within 5 s (sent again)",
      key("first_attempts_unanswered"),
      "0",
      (v) => v === 0
    ),
    row("  payments captured", key("captured"), String(size), (v) => v === size),
    row("  payments captured twice", key("double_captures"), "0", (v) => v === 0),
    row("  time to the last capture / their server CPU", key("cpu_bound_ratio"), "<= 1.3", (v) => v <= 1.3),
  ]
}

function describeCalls(calls: Record<string, number> | undefined): string {
  if (!calls) return "-"
  return Object.entries(calls)
    .map(([path, n]) => `${n} ${path}`)
    .join(", ")
}

function parseOnly(): Set<string> | undefined {
  const arg = process.argv.find((a) => a.startsWith("--only="))
  return arg ? new Set(arg.slice("--only=".length).split(",")) : undefined
}

async function clientFigures(log: (line: string) => void) {
  const sandbox = await startSandboxProcess()
  try {
    const tokenRequests = await tokenRequestsForConcurrentCreations(sandbox)
    const latency = await creationLatency(sandbox)
    const rps = await sandboxThroughput(sandbox)
    const heapMb = await clientHeapRetained(sandbox)
    const afterExpiry = await tokenRequestsAfterExpiry(sandbox)
    log(
      `  token requests after expiry: ${afterExpiry.platformClock} (platform clock), ${afterExpiry.lifetime} (client clock)`
    )
    return {
      figures: {
        token_requests_1000_concurrent: tokenRequests,
        client_p50_ms: round(latency.client_p50_ms),
        client_p99_ms: round(latency.client_p99_ms),
        bare_p50_ms: round(latency.bare_p50_ms),
        bare_p99_ms: round(latency.bare_p99_ms),
        client_overhead_p50_ratio: round(latency.client_p50_ms / latency.bare_p50_ms),
        client_overhead_p99_ratio: round(latency.client_p99_ms / latency.bare_p99_ms),
        sandbox_rps: Math.round(rps),
        token_requests_after_expiry: Math.max(afterExpiry.platformClock, afterExpiry.lifetime),
        client_heap_retained_mb_10k: round(heapMb, 2),
      },
      afterExpiry,
    }
  } finally {
    await sandbox.stop()
  }
}

async function main(): Promise<void> {
  const json = process.argv.includes("--json")
  const only = parseOnly()
  const runs = (phase: string) => !only || only.has(phase)
  const cpuProfileDir = process.argv.includes("--cpu-prof")
    ? path.resolve(__dirname, "..", ".test-artifacts", "bench-profiles")
    : undefined
  const log = (line: string) => console.error(line)
  const startedAt = performance.now()
  const load = os.loadavg()
  log(
    `bench${QUICK ? " (quick)" : ""} on ${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, load average ${load.map((l) => l.toFixed(2)).join(" ")}`
  )

  let client: Awaited<ReturnType<typeof clientFigures>> | undefined
  if (runs("client")) {
    log("client and sandbox...")
    client = await clientFigures(log)
  }
  let shop: { figures: Partial<ShopFigures>; notes: Partial<ShopNotes> } | undefined
  if (["checkout", "webhooks", "burst500", "poll", "poll100k"].some(runs)) {
    log("shop: PostgreSQL, sandbox and a Medusa app with the plugin...")
    const phases = only ? new Set([...only].filter((p) => p !== "client")) : undefined
    const sizes = { ...(QUICK ? QUICK_SIZES : FULL_SIZES) }
    const checkouts = process.argv.find((a) => a.startsWith("--checkouts="))
    if (checkouts) sizes.checkoutSamples = Number(checkouts.slice("--checkouts=".length))
    shop = await shopBench({ sizes, cpuProfileDir, only: phases, log })
    if (cpuProfileDir) log(`CPU profile of the Medusa app in ${cpuProfileDir}`)
  }
  let cluster: Record<string, number> | undefined
  if (runs("cluster")) cluster = await clusterFigures(log)
  const figures: Record<string, number> = {
    ...client?.figures,
    ...(shop?.figures as Record<string, number>),
    ...cluster,
  }
  const f = (key: string): number | undefined => figures[key]
  // The poll sizes that ran: every poll_run_ms_<N> figure, and the check-age runs (poll_check_age_max_min_<N>).
  const sizesOf = (prefix: string) =>
    Object.keys(figures)
      .filter((key) => key.startsWith(prefix))
      .map((key) => Number(key.slice(prefix.length)))
      .sort((a, b) => a - b)
  const poll = { runs: sizesOf("poll_run_ms_per_payment_"), ages: sizesOf("poll_check_age_max_min_") }
  const interval = POLL_INTERVAL_MINUTES
  const perPaymentRatio = (size: number) => {
    const at = f(`poll_run_ms_per_payment_${size}`)
    const base = f(`poll_run_ms_per_payment_${poll.runs[0]}`)
    return at !== undefined && base !== undefined && size !== poll.runs[0] ? round(at / base, 2) : undefined
  }
  // Poll run time per payment, 10,000 (or the quick run's largest below it) and 100,000 waiting, against 100.
  const usualLargest = [...poll.runs].reverse().find((n) => n < LARGEST_SHOP_WAITING)
  const pollFlatness = usualLargest === undefined ? undefined : perPaymentRatio(usualLargest)
  if (pollFlatness !== undefined) figures.poll_time_per_payment_ratio = pollFlatness
  const flatness100k = perPaymentRatio(LARGEST_SHOP_WAITING)
  if (flatness100k !== undefined) figures[`poll_time_per_payment_ratio_${LARGEST_SHOP_WAITING}`] = flatness100k

  const rows: Row[] = [["figure", "value", "target", ""]]
  if (client) {
    rows.push(
      row("token requests, 1,000 concurrent creations", f("token_requests_1000_concurrent"), "1", (v) => v === 1),
      row("creation p50 via client (ms)", f("client_p50_ms")),
      row("creation p50 bare undici (ms)", f("bare_p50_ms")),
      row("client overhead p50 (ratio)", f("client_overhead_p50_ratio"), "<= 1.10", (v) => v <= 1.1),
      row("creation p99 via client (ms)", f("client_p99_ms")),
      row("creation p99 bare undici (ms)", f("bare_p99_ms")),
      row("client overhead p99 (ratio)", f("client_overhead_p99_ratio"), "<= 1.10", (v) => v <= 1.1),
      row(`sandbox throughput (status reads/s, ${THROUGHPUT_IN_FLIGHT} in flight)`, f("sandbox_rps")),
      row(
        `token requests, 1,000 creations after expiry (platform clock ${client.afterExpiry.platformClock}, client clock ${client.afterExpiry.lifetime})`,
        f("token_requests_after_expiry"),
        "1",
        (v) => v === 1
      ),
      row("client heap retained after 10,000 creations (MB)", f("client_heap_retained_mb_10k"), "< 5", (v) => v < 5)
    )
  }
  if (shop) {
    const n = shop.notes
    rows.push(
      row(`checkout p50, REFPAY (ms, ${n.checkoutSamples ?? "-"} runs)`, f("checkout_refpay_p50_ms")),
      row("checkout p50, pp_system_default (ms)", f("checkout_system_p50_ms")),
      row(
        "checkout REFPAY / system (ratio of medians)",
        f("checkout_ratio_refpay_vs_system"),
        "<= 1.03",
        (v) => v <= 1.03
      ),
      row("  the same, median of the per-round ratios", f("checkout_ratio_paired")),
      row(
        "  control: cart preparation, the same calls for both (ratio, the run's noise)",
        f("checkout_control_ratio_same_steps")
      ),
      row("cart completion p50, REFPAY (ms)", f("complete_refpay_p50_ms")),
      row("cart completion p50, pp_system_default (ms)", f("complete_system_p50_ms")),
      row("cart completion REFPAY / system (ratio)", f("complete_ratio_refpay_vs_system"), "<= 1.05", (v) => v <= 1.05),
      row("  the same, median of the per-round ratios", f("complete_ratio_paired")),
      row(
        "server CPU per checkout p50, REFPAY (ms, what it leaves behind included)",
        f("checkout_server_cpu_refpay_p50_ms")
      ),
      row("server CPU per checkout p50, pp_system_default (ms)", f("checkout_server_cpu_system_p50_ms")),
      row("server CPU per checkout REFPAY / system (ratio)", f("checkout_server_cpu_ratio_refpay_vs_system")),
      row(
        `platform calls per REFPAY checkout (${describeCalls(n.checkoutCalls)})`,
        f("platform_calls_per_checkout"),
        "1",
        (v) => v <= 1
      ),
      row(
        "SQL statements per checkout, REFPAY (what it leaves behind included)",
        f("db_statements_per_checkout_refpay")
      ),
      row("SQL statements per checkout, pp_system_default", f("db_statements_per_checkout_system")),
      row(
        `APPROVED webhook to captured p50, /hooks/refpay (ms, ${n.webhookSamples ?? "-"} one at a time)`,
        f("webhook_to_captured_p50_ms")
      ),
      row(
        "APPROVED webhook to captured p99, /hooks/refpay (ms)",
        f("webhook_to_captured_p99_ms"),
        "< 500",
        (v) => v < 500
      ),
      row("  the delivery answered p50 (ms, the sync done)", f("webhook_answered_p50_ms")),
      row(`  platform calls per capture (${describeCalls(n.captureCalls)})`, undefined),
      row("  SQL statements per capture through /hooks/refpay", f("db_statements_per_capture")),
      row(
        "APPROVED webhook to captured p50, Medusa's webhook route (ms, 5 s delay by design)",
        f("webhook_to_captured_medusa_door_p50_ms")
      ),
      row(
        `webhooks processed to capture per second (${QUICK ? QUICK_SIZES.sustainedInFlight : FULL_SIZES.sustainedInFlight} in flight)`,
        f("webhooks_per_second")
      ),
      row(
        `${QUICK ? QUICK_SIZES.burst : FULL_SIZES.burst} payments paid at once: all captured after (s)`,
        f("webhook_burst_capture_s")
      ),
      row(
        "  their deliveries not answered within the sandbox's 10 s (sent again)",
        f("webhook_burst_first_attempts_unanswered")
      ),
      ...largeBurstRows(QUICK ? QUICK_SIZES.largeBurst : FULL_SIZES.largeBurst, f)
    )
    rows.push(
      row("poll: SQL statements per poll run, nothing due", f("db_statements_per_poll_run")),
      row("poll: SQL statements per payment checked", f("db_statements_per_poll_check")),
      row(
        "poll: an unchanged check, server CPU (ms, largest poll run)",
        f("poll_unchanged_check_cpu_ms"),
        "<= 2",
        (v) => v <= 2
      ),
      row("poll: an unchanged check, SQL statements", f("poll_unchanged_check_sql"), "<= 1", (v) => v <= 1)
    )
    for (const size of poll.runs) {
      rows.push(
        row(
          `poll run with ${size} waiting (ms; ${f(`poll_run_checked_${size}`) ?? "-"} due checked)`,
          f(`poll_run_ms_${size}`)
        ),
        row(
          `  ms per payment checked (server CPU ${f(`poll_run_cpu_ms_per_payment_${size}`) ?? "-"} ms)`,
          f(`poll_run_ms_per_payment_${size}`)
        ),
        row(`  poll run with none due (ms)`, f(`poll_idle_run_ms_${size}`)),
        row(`  platform calls per payment checked`, f(`poll_platform_calls_per_payment_${size}`), "1", (v) => v <= 1)
      )
      if (size !== poll.runs[0])
        rows.push(
          row(`  time per payment vs ${poll.runs[0]} waiting (ratio)`, perPaymentRatio(size), "<= 1.5", (v) => v <= 1.5)
        )
      if (f(`numbers_ms_${size}`) !== undefined)
        rows.push(
          row(
            `  REFPAY page: the owner's numbers, ${f(`numbers_issued_${size}`)} references in the period (ms)`,
            f(`numbers_ms_${size}`),
            "< 300",
            (v) => v < 300
          )
        )
      if (f(`attention_ms_${size}`) !== undefined)
        rows.push(
          row(`  REFPAY page: attention counts and first page (ms)`, f(`attention_ms_${size}`), "< 200", (v) => v < 200)
        )
    }
    for (const size of poll.ages) {
      rows.push(
        row(
          `longest unchecked with ${size} waiting (minutes)`,
          f(`poll_check_age_max_min_${size}`),
          `<= ${interval + 1}`,
          (v) => v <= interval + 1
        ),
        row(
          `  share of one core the poll job takes (every ${interval} min)`,
          f(`poll_core_share_${size}`),
          size <= 10_000 ? "< 0.05" : "",
          size <= 10_000 ? (v) => v < 0.05 : undefined
        )
      )
    }
    rows.push(row("Medusa server RSS after the checkouts (MB)", f("server_rss_mb")))
  }
  if (cluster) {
    rows.push(
      row(
        `cluster: poll checks per second, one process (${f("cluster_spread_checks")} due; machine ${f("cluster_machine_busy_share_1")} busy)`,
        f("cluster_checks_per_s_1")
      ),
      row(
        `cluster: poll checks per second, two processes (machine ${f("cluster_machine_busy_share_2")} busy)`,
        f("cluster_checks_per_s_2")
      ),
      row("  two processes vs one (ratio)", f("cluster_checks_ratio_2_to_1"), "about 2 with cores to spare"),
      row("  CPU ms per check of the checking processes, one process", f("cluster_cpu_ms_per_check_1")),
      row("  CPU ms per check of the checking processes, two processes", f("cluster_cpu_ms_per_check_2")),
      row("  payments read twice in one poll run", f("cluster_spread_read_twice"), "0", (v) => v === 0)
    )
  }
  printTable(rows)
  // How busy the machine was: timings (not counts) move with it.
  figures.bench_seconds = round((performance.now() - startedAt) / 1000, 1)
  figures.cpu_count = os.cpus().length
  figures.load_average_1m_start = round(load[0]!, 2)
  figures.load_average_1m_end = round(os.loadavg()[0]!, 2)
  log(
    `bench took ${figures.bench_seconds} s; load average now ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`
  )
  if (json) console.log(JSON.stringify(figures))
}

// Exiting runs the exit handlers that stop what the bench started (PostgreSQL, sandboxes, the Medusa app).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    console.error(`bench: ${signal}; stopping what it started`)
    process.exit(130)
  })
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})

import { randomUUID } from "node:crypto"
import { performance } from "node:perf_hooks"
import { Pool, request } from "undici"
import { createRefpayClient } from "../src/lib/refpay"
import { startSandboxProcess, type SandboxProcess } from "./sandbox-process"
import { percentile, round } from "./stats"

/**
 * Benchmarks of the platform client against the sandbox over loopback (never another address):
 *  (a) token requests made for 1,000 concurrent payment creations (target: exactly 1);
 *  (b) p50/p99 latency of a payment creation through the client vs a bare undici request (target ratio <= 1.10);
 *  (c) sandbox throughput in requests per second (status reads, 32 in flight).
 * Every loop is bounded in count and time.
 */

const CREDENTIALS = { clientId: "sandbox-client-id", clientSecret: "sandbox-client-secret" }
const CONCURRENT_CREATIONS = 1_000
const LATENCY_SAMPLES = 8_000
const WARMUP = 500
const THROUGHPUT_SECONDS = 5
const THROUGHPUT_IN_FLIGHT = 32

let orderSeq = 0
function creationInput() {
  orderSeq += 1
  return { paymentId: randomUUID(), orderId: `bench-${process.pid}-${orderSeq}`, amountCents: 1999, idempotencyKey: randomUUID() }
}

function client(sandbox: SandboxProcess) {
  return createRefpayClient({ tokenInterface: "t1", authUrl: sandbox.authUrl, paymentsUrl: sandbox.paymentsUrl, ...CREDENTIALS })
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
  const body = new URLSearchParams({ grant_type: "client_credentials", client_id: CREDENTIALS.clientId, client_secret: CREDENTIALS.clientSecret })
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
      data: { amount: input.amountCents, currency: "EUR", payment: { payment_id: input.paymentId, payment_method: "CASH_PAYMENT", brand: "REFPAY" } },
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
      data: { amount: 500, currency: "EUR", payment: { payment_id: paymentId, payment_method: "CASH_PAYMENT", brand: "REFPAY" } },
    }),
  })
  await response.body.dump()
}

function printTable(rows: [string, string, string][]): void {
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)))
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join("  "))
}

async function main(): Promise<void> {
  const json = process.argv.includes("--json")
  const sandbox = await startSandboxProcess()
  try {
    const tokenRequests = await tokenRequestsForConcurrentCreations(sandbox)
    const latency = await creationLatency(sandbox)
    const rps = await sandboxThroughput(sandbox)
    const figures = {
      token_requests_1000_concurrent: tokenRequests,
      client_p50_ms: round(latency.client_p50_ms),
      client_p99_ms: round(latency.client_p99_ms),
      bare_p50_ms: round(latency.bare_p50_ms),
      bare_p99_ms: round(latency.bare_p99_ms),
      client_overhead_p50_ratio: round(latency.client_p50_ms / latency.bare_p50_ms),
      client_overhead_p99_ratio: round(latency.client_p99_ms / latency.bare_p99_ms),
      sandbox_rps: Math.round(rps),
    }
    printTable([
      ["figure", "value", "target"],
      ["token requests, 1,000 concurrent creations", String(figures.token_requests_1000_concurrent), "1"],
      ["creation p50 via client (ms)", String(figures.client_p50_ms), ""],
      ["creation p50 bare undici (ms)", String(figures.bare_p50_ms), ""],
      ["client overhead p50 (ratio)", String(figures.client_overhead_p50_ratio), "<= 1.10"],
      ["creation p99 via client (ms)", String(figures.client_p99_ms), ""],
      ["creation p99 bare undici (ms)", String(figures.bare_p99_ms), ""],
      ["client overhead p99 (ratio)", String(figures.client_overhead_p99_ratio), "<= 1.10"],
      [`sandbox throughput (status reads/s, ${THROUGHPUT_IN_FLIGHT} in flight)`, String(figures.sandbox_rps), ""],
    ])
    if (json) console.log(JSON.stringify(figures))
  } finally {
    await sandbox.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})

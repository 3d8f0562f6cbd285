// One cluster for a suite: the demo app (the packed plugin installed in demo/, `medusa build`) started by the same
// code as `npm run demo -- --servers 2 [--worker]` (scripts/lib/demo-stack.js): a throwaway PostgreSQL, Debian's
// redis-server, the REFPAY sandbox, several `medusa start` processes with Medusa's Redis modules, and the
// round-robin load balancer. Webhooks go through the fan-out proxy to every server. Everything on loopback; all
// of it stopped whatever happens (afterAll, and a last-resort kill on exit). The servers' logs are kept in
// .test-artifacts/cluster/<suite>/.
import fs from "node:fs"
import path from "node:path"
import { Ledger } from "./ledger"
import { Platform } from "./platform"
import type { Order } from "./shop-load"
import { POLL_EVERY_SECONDS, POLL_EVERY_MS } from "./poll-runs"
import { Storefront } from "./storefront"
import { startWebhookFanOut, type WebhookFanOut } from "./webhook-fan-out"
import { cpuSince, recordCpuPerTest } from "../fixtures/suite-cpu"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { treeCpuSeconds } = require("../../scripts/lib/cpu-time") as { treeCpuSeconds(): number | null }

export const root = path.resolve(__dirname, "..", "..")
const artifacts = path.join(root, ".test-artifacts", "cluster")

export type Mode = "shared" | "server" | "worker"

export interface ClusterServer {
  name: string
  mode: Mode
  port: number
  url: string
  logFile: string
  pid: number | undefined
  isRunning(): boolean
  start(): Promise<void>
  kill(signal?: NodeJS.Signals): Promise<void>
  /** Stopped as a deployment stops it (SIGTERM), then started with `changes` over its environment. */
  redeploy(changes: Record<string, string>): Promise<void>
}

interface RunningDemo {
  info: {
    shop_url: string
    publishable_key: string
    region_id: string
    sandbox_url: string
    database_url: string
    redis_url: string
  }
  logsDir: string
  timings: Record<string, number>
  cluster: {
    url: string
    servers: ClusterServer[]
    server(name: string): ClusterServer
    balancer: {
      stats(): Record<string, { requests: number; in_flight: number; failed: number }>
      inFlight(name: string): string[]
    }
    stop(): Promise<void>
    reshape(plan: { servers: number; worker?: boolean; env?: Record<string, string> }): Promise<void>
    redis: {
      url: string
      port: number
      restart(o?: { signal?: NodeJS.Signals; downMs?: number }): Promise<void>
      isRunning(): boolean
    }
  }
  stop(): Promise<void>
  killAll(): void
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startDemo } = require("../../scripts/lib/demo-stack") as {
  startDemo: (options: object) => Promise<RunningDemo>
}

export interface ClusterOptions {
  /** Suite name: the folder of its logs under .test-artifacts/cluster/. */
  name: string
  servers: number
  /** One more process in worker mode; the servers then run in server mode. */
  worker?: boolean
}

export class ClusterStack {
  demo!: RunningDemo
  platform!: Platform
  ledger!: Ledger
  fanOut!: WebhookFanOut
  storefront!: Storefront
  variantId!: string
  private logFile: string
  private readonly dir: string
  /**
   * Orders still waiting for payment that a test left for a later one to pay (`waitingOrders` takes them first), so
   * the phase does not place new orders where waiting ones serve.
   */
  readonly unpaidOrders: Order[] = []
  /** Also deliver every webhook to Medusa's webhook route (through the Redis event bus) of one server in turn. */
  medusaRoute = false
  private exitHandler = () => this.demo?.killAll()
  private startedAt = 0
  /** CPU-seconds of this jest process and everything it started (servers, PostgreSQL, Redis, sandbox), by span. */
  private readonly cpu: { atStart: number | null; startUp?: number; perTest: Record<string, number> } = {
    atStart: null,
    perTest: {},
  }

  constructor(readonly options: ClusterOptions) {
    this.dir = path.join(artifacts, options.name)
    this.logFile = path.join(this.dir, "stack.log")
  }

  log(line: string): void {
    fs.appendFileSync(this.logFile, `${new Date().toISOString()} ${line}\n`)
  }

  get servers(): ClusterServer[] {
    return this.demo.cluster.servers
  }

  /** The servers that serve HTTP (all but a worker). */
  get httpServers(): ClusterServer[] {
    return this.servers.filter((s) => s.mode !== "worker")
  }

  server(name: string): ClusterServer {
    return this.demo.cluster.server(name)
  }

  async start(): Promise<void> {
    this.startedAt = Date.now()
    this.cpu.atStart = treeCpuSeconds()
    fs.rmSync(this.dir, { recursive: true, force: true })
    fs.mkdirSync(this.dir, { recursive: true })
    process.once("exit", this.exitHandler)
    this.demo = await startDemo({
      root,
      ephemeral: true,
      port: 0,
      storefrontPort: 0,
      sandboxPort: 0,
      servers: this.options.servers,
      worker: this.options.worker,
      // A production Redis keeps its data (append-only file): a killed one comes back with Medusa's queues.
      redisPersistent: true,
      // Every waiting payment due at every poll run of the poll job, so a poll run's reads can be counted; and the job run
      // every POLL_EVERY_SECONDS instead of every minute, so the suite waits seconds for a poll run, not minutes.
      shopEnv: { REFPAY_POLL_INTERVAL_MINUTES: "0", REFPAY_POLL_EVERY_SECONDS: String(POLL_EVERY_SECONDS) },
      log: (line: string) => this.log(line),
    })
    this.log(
      `ready: ${JSON.stringify(this.demo.timings)}; servers ${JSON.stringify(this.servers.map((s) => [s.name, s.mode, s.url]))}`
    )
    const { info } = this.demo
    this.platform = new Platform(info.sandbox_url.replace("localhost", "127.0.0.1"))
    this.ledger = await Ledger.connect(info.database_url)
    this.storefront = new Storefront(this.demo.cluster.url, info.publishable_key, info.region_id, {
      retries: 10,
      retryDelayMs: 2_000,
    })
    this.variantId = await this.storefront.firstVariantId()
    // The platform's webhooks reach every server (a load balancer would pick one).
    this.fanOut = await startWebhookFanOut({
      targets: () => this.httpServers.map((s) => ({ name: s.name, url: s.url })),
      medusaRoute: () => this.medusaRoute,
    })
    await this.platform.configureWebhooks({ url: this.fanOut.url })
    this.cpu.startUp = cpuSince(this.cpu.atStart)
  }

  /**
   * Records what each test of the suite costs the machine (the CPU-seconds of the whole stack and the suite's own
   * process while it runs), in figures.json's `cpu`: where the phase's CPU goes, test by test.
   */
  recordCpuPerTest(): void {
    recordCpuPerTest(this.cpu.perTest)
  }

  /** Another set of processes on the same database, Redis, sandbox and load balancer (a redeployment). */
  async reshape(plan: {
    servers: number
    worker?: boolean
    medusaRoute?: boolean
    env?: Record<string, string>
  }): Promise<void> {
    const started = Date.now()
    await this.demo.cluster.reshape(plan)
    this.medusaRoute = Boolean(plan.medusaRoute)
    this.log(
      `reshaped in ${Date.now() - started} ms: ${JSON.stringify(this.servers.map((s) => [s.name, s.mode, s.url]))}`
    )
  }

  async stop(): Promise<void> {
    try {
      await this.fanOut?.close()
      await this.ledger?.close().catch(() => undefined)
      // Servers first, so their logs are complete when copied; then the rest (sandbox, Redis, PostgreSQL).
      await this.demo?.cluster.stop()
      if (this.demo) {
        for (const file of fs.readdirSync(this.demo.logsDir)) {
          fs.copyFileSync(path.join(this.demo.logsDir, file), path.join(this.dir, file))
        }
      }
    } finally {
      await this.demo?.stop()
      process.off("exit", this.exitHandler)
      if (this.startedAt) {
        const seconds = Math.round((Date.now() - this.startedAt) / 1000)
        const cpuSeconds = cpuSince(this.cpu.atStart)
        this.figures("phase", { seconds, start_up_ms: this.demo?.timings, poll_every_seconds: POLL_EVERY_SECONDS })
        this.figures("cpu", { seconds: cpuSeconds, start_up_seconds: this.cpu.startUp, per_test: this.cpu.perTest })
        process.stdout.write(
          `cluster suite ${this.options.name}: ${(seconds / 60).toFixed(1)} min from start-up to stop (poll job every ${POLL_EVERY_SECONDS} s), ${cpuSeconds ?? "?"} CPU-s (start-up ${this.cpu.startUp ?? "?"})\n`
        )
      }
    }
  }

  /** Lines of a server's log (JSON lines from `medusa start` in production mode) that match `pattern`. */
  logLines(server: ClusterServer, pattern: RegExp): string[] {
    try {
      return fs
        .readFileSync(server.logFile, "utf8")
        .split("\n")
        .filter((line) => pattern.test(line))
    } catch {
      return []
    }
  }

  /** Records figures for the report (.test-artifacts/cluster/<suite>/figures.json). */
  figures(name: string, value: unknown): void {
    const file = path.join(this.dir, "figures.json")
    const all = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {}
    all[name] = value
    fs.writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`)
    this.log(`figures ${name}: ${JSON.stringify(value)}`)
  }
}

/** A whole-number size read from the environment variable `name` (the cluster tests' sizes), within its bounds. */
export function wholeNumberSetting(name: string, fallback: number, min: number, max = Infinity): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number of ${min} or more${max < Infinity ? `, at most ${max}` : ""}`)
  return value
}

/** Polls `check` until it holds (returns true) or `timeoutMs` passes; then throws with `what` and `describe()`. */
export async function waitUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
  describe?: () => Promise<string>
): Promise<number> {
  const started = Date.now()
  for (;;) {
    if (await check()) return Date.now() - started
    if (Date.now() - started > timeoutMs) {
      throw new Error(`${what}: not within ${Math.round(timeoutMs / 1000)} s${describe ? `. ${await describe()}` : ""}`)
    }
    await sleep(1_000)
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Milliseconds until the poll job's next poll run (every POLL_EVERY_SECONDS, on whole multiples of it) plus `afterMs`. */
export function untilNextPollRun(afterMs = 0): number {
  return POLL_EVERY_MS - (Date.now() % POLL_EVERY_MS) + afterMs
}

import net from "node:net"
import { performance } from "node:perf_hooks"
import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createAdminAndLogin } from "../integration-tests/fixtures/admin"
import { seedRefpayStore } from "../integration-tests/fixtures/store"
import { pollRefpayPayments } from "../src/sync-triggers/poll/poll"
import { POLL_LOCK } from "../src/sync-triggers/poll/poll-lock"
import type { AppCommand, AppReady, AppReply } from "./medusa-app-protocol"
import { loopbackApi } from "./shop-api"

/*
 * The Medusa app of `npm run bench`, in a process of its own (forked by bench/medusa-app-process.ts): booted by
 * @medusajs/test-utils' medusaIntegrationTestRunner exactly as the integration suites boot theirs (this repository's
 * medusa-config.ts, the plugin's provider, routes, subscribers, jobs and hooks from source, a database of its own
 * on the bench's PostgreSQL), seeded with the integration suites' store fixture, and then driven over HTTP like a
 * shop. What only the process itself can do (a poll run at a chosen `now`, its memory) is asked over IPC.
 */

// Everything this process listens on is loopback: test-utils calls app.listen(port) without a host.
const listen = net.Server.prototype.listen as (...args: unknown[]) => net.Server
net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
  const [first, second] = args
  if ((typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) && typeof second !== "string") {
    return listen.call(this, Number(first), "127.0.0.1", ...args.slice(1))
  }
  if (first && typeof first === "object" && !("path" in first) && !(first as net.ListenOptions).host) {
    return listen.call(this, { ...(first as object), host: "127.0.0.1" }, ...args.slice(1))
  }
  return listen.apply(this, args)
} as typeof net.Server.prototype.listen

/** The few jest globals medusaIntegrationTestRunner uses, collected and then run by hand, in jest's order. */
type Hook = () => unknown
const hooks = { beforeAll: [] as Hook[], afterAll: [] as Hook[] }
Object.assign(globalThis, {
  describe: (_name: string, body: () => void) => body(),
  beforeAll: (fn: Hook) => hooks.beforeAll.push(fn),
  afterAll: (fn: Hook) => hooks.afterAll.unshift(fn),
  // Per-test database restores: the bench is one long "test" and never restores.
  beforeEach: () => undefined,
  afterEach: () => undefined,
})

function send(message: AppReady | AppReply): void {
  process.send?.(message)
}

async function main(): Promise<void> {
  let options: { getContainer: () => MedusaContainer; dbConfig: { dbName: string } } | undefined
  medusaIntegrationTestRunner({
    inApp: true,
    env: {},
    testSuite: (medusa) => {
      options = medusa as unknown as typeof options
    },
  })
  for (const hook of hooks.beforeAll) await hook()
  const container = options!.getContainer()
  const port = Number(new URL((options as any).api.defaults.baseURL as string).port)

  const store = await seedRefpayStore(container)
  const admin = await createAdminAndLogin(container, loopbackApi(port))

  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    for (const hook of hooks.afterAll) await hook()
  }

  /** Waits until no poll run (the app's own minute job) holds the poll run lock, so one poll run is timed alone. */
  async function pollAlone(nowMs: number) {
    await container.resolve<ILockingModule>(Modules.LOCKING).execute(POLL_LOCK, async () => undefined, { timeout: 600 })
    const start = performance.now()
    const cpuStart = process.cpuUsage()
    const results = await pollRefpayPayments(container, new Date(nowMs))
    const ms = performance.now() - start
    const cpu = process.cpuUsage(cpuStart)
    const cpuMs = (cpu.user + cpu.system) / 1000
    const actions: Record<string, number> = {}
    for (const r of results) actions[r.action] = (actions[r.action] ?? 0) + 1
    return {
      ms,
      cpuMs,
      synced: results.length,
      sessionIds: results.map((r: { sessionId: string }) => r.sessionId),
      actions,
    }
  }

  process.on("message", async (message: AppCommand | number) => {
    if (typeof message !== "object" || message === null) return // test-utils announces its port with process.send(port)
    const reply = (result: unknown) => send({ type: "reply", id: message.id, ok: true, result })
    try {
      switch (message.cmd) {
        case "poll":
          return reply(await pollAlone(message.nowMs))
        case "memory":
          if (message.gc && global.gc) global.gc()
          return reply(process.memoryUsage())
        case "cpu": {
          const { user, system } = process.cpuUsage()
          return reply((user + system) / 1000)
        }
        case "stop":
          await stop()
          reply(true)
          setTimeout(() => process.exit(0), 50)
          return
      }
    } catch (error) {
      send({ type: "reply", id: message.id, ok: false, error: (error as Error).stack ?? String(error) })
    }
  })
  process.on("disconnect", () => {
    void stop().finally(() => process.exit(0))
  })

  send({
    type: "ready",
    port,
    dbName: options!.dbConfig.dbName,
    store,
    adminToken: admin.headers.authorization,
  })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

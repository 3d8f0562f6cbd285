import { fork, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import type { AppCommand, AppReady, AppReply, PollRunResult } from "./medusa-app-protocol"

export interface MedusaAppOptions {
  /** DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD of the bench's PostgreSQL (test-utils creates the app's database). */
  db: { host: string; port: number; user: string; password: string }
  /** REFPAY_* settings: the sandbox's URLs and credentials. */
  env: Record<string, string>
  /** Write a V8 CPU profile of the app into this folder (node --cpu-prof). */
  cpuProfileDir?: string
  logFile: string
}

type Distribute<T> = T extends unknown ? Omit<T, "id"> : never

export interface MedusaApp {
  ready: AppReady
  url: string
  pid: number
  poll(nowMs: number): Promise<PollRunResult>
  memory(gc?: boolean): Promise<NodeJS.MemoryUsage>
  /** CPU time (user + system) the app process has used so far, in ms. */
  cpuMs(): Promise<number>
  stop(): Promise<void>
}

const BOOT_TIMEOUT_MS = 240_000

/**
 * Boots the bench's Medusa app (bench/medusa-app-main.ts) in a child process and resolves once it is seeded and
 * listening on loopback. stop() shuts it down (its database is dropped), and kills it if it does not exit.
 */
export function startMedusaApp(options: MedusaAppOptions): Promise<MedusaApp> {
  const log = fs.openSync(options.logFile, "a")
  const execArgv = [
    "--expose-gc",
    ...(options.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
  ]
  const child: ChildProcess = fork(path.join(__dirname, "medusa-app.js"), [], {
    cwd: path.resolve(__dirname, ".."),
    execArgv,
    stdio: ["ignore", log, log, "ipc"],
    env: {
      ...process.env,
      ...options.env,
      DB_HOST: options.db.host,
      DB_PORT: String(options.db.port),
      DB_USERNAME: options.db.user,
      DB_PASSWORD: options.db.password,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
      MEDUSA_DISABLE_TELEMETRY: "true",
      NODE_ENV: "test",
    },
  })
  fs.closeSync(log)

  let nextId = 1
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  let exited = false
  const exit = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true
      for (const waiter of pending.values()) waiter.reject(new Error("the Medusa app exited"))
      pending.clear()
      resolve()
    })
  )

  const ask = <T>(command: Distribute<AppCommand>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(new Error("the Medusa app is not running"))
      const id = nextId++
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      child.send({ ...command, id })
    })

  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (exited) return
      const killer = setTimeout(() => child.kill("SIGKILL"), 30_000)
      await ask({ cmd: "stop" }).catch(() => child.kill("SIGTERM"))
      await exit
      clearTimeout(killer)
    })()
    return stopping
  }
  // Whatever happens to the bench, the app does not outlive it.
  process.once("exit", () => {
    if (!exited) child.kill("SIGKILL")
  })

  return new Promise<MedusaApp>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`the Medusa app did not start in ${BOOT_TIMEOUT_MS / 1000} s; see ${options.logFile}`))
    }, BOOT_TIMEOUT_MS)
    let booting = true
    child.once("exit", (code) => {
      clearTimeout(timer)
      if (booting) reject(new Error(`the Medusa app exited with code ${code} while starting; see ${options.logFile}`))
    })
    child.on("message", (message: AppReady | AppReply | number) => {
      if (typeof message !== "object" || message === null) return
      if (message.type === "reply") {
        const waiter = pending.get(message.id)
        pending.delete(message.id)
        if (message.ok) waiter?.resolve(message.result)
        else waiter?.reject(new Error(`Medusa app: ${message.error}`))
        return
      }
      clearTimeout(timer)
      booting = false
      resolve({
        ready: message,
        url: `http://127.0.0.1:${message.port}`,
        pid: child.pid!,
        poll: (nowMs) => ask({ cmd: "poll", nowMs }),
        memory: (gc) => ask({ cmd: "memory", gc }),
        cpuMs: () => ask({ cmd: "cpu" }),
        stop,
      })
    })
  })
}

import type { SeededStore } from "../integration-tests/fixtures/store"

/** What the bench asks the Medusa app process over IPC (bench/medusa-app-main.ts answers). */
export type AppCommand =
  | { id: number; cmd: "poll"; nowMs: number }
  | { id: number; cmd: "memory"; gc?: boolean }
  | { id: number; cmd: "cpu" }
  | { id: number; cmd: "stop" }

export interface AppReady {
  type: "ready"
  /** Loopback port of the shop's HTTP server. */
  port: number
  /** The app's database on the bench's PostgreSQL. */
  dbName: string
  store: SeededStore
  /** "Bearer <jwt>" of an admin user. */
  adminToken: string
}

export type AppReply =
  { type: "reply"; id: number; ok: true; result: unknown } | { type: "reply"; id: number; ok: false; error: string }

export interface PollRunResult {
  ms: number
  /** CPU time of the app process during the poll run. */
  cpuMs: number
  /** Sessions the poll run synced without error. */
  synced: number
  sessionIds: string[]
  actions: Record<string, number>
}

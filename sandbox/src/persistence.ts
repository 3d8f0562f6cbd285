import fs from "node:fs"
import path from "node:path"
import type { IdempotencyEntry } from "./idempotency"
import { webhookUrl, type WebhookAuthMode } from "./options"
import type { Payment } from "./payment-store"

/**
 * The optional state file (`--state FILE`): what a restarted sandbox needs so references it issued stay payable
 * and retries still replay. Webhook events, faults, the request log and token counts are not kept (they describe
 * a run, not the platform's data), nor is any secret: the webhook secret comes from the start-up options again.
 *
 * Writes are atomic: a temp file in the same folder, fsync, rename, so a crash at any moment leaves either the
 * previous complete file or the new one. A temp file left behind by a crash is never read.
 */
export const STATE_FORMAT = "refpay-sandbox-state"
export const STATE_VERSION = 1

/** The webhook set-up as `GET /__sandbox/webhooks/config` shows it: whether a secret is set, never the secret. */
export interface SavedWebhooks {
  url: string | null
  auth: WebhookAuthMode
  retries: number
  backoff_ms: number
  secret_set: boolean
}

/** Everything the file holds apart from its header. */
export interface StateSnapshot {
  clock_offset_ms: number
  webhooks: SavedWebhooks
  payments: Payment[]
  idempotency: IdempotencyEntry[]
  /** Every reference issued, forgotten payments' included: never issued twice, restarts or not. */
  references: string[]
}

export interface SavedState extends StateSnapshot {
  format: typeof STATE_FORMAT
  version: typeof STATE_VERSION
  saved_at: string
}

export class SandboxStateError extends Error {
  override name = "SandboxStateError"
}

/** `<file>.<pid>.tmp`: one writer per process, and a leftover names the process that left it. */
function tempName(file: string, pid: number): string {
  return `${file}.${pid}.tmp`
}

/**
 * Reads the state file: undefined when it does not exist (or is empty: `touch`ed), the saved state when it is one,
 * and a SandboxStateError naming the file otherwise. Temp files of dead processes beside it are removed.
 */
export function loadState(file: string): SavedState | undefined {
  removeStaleTempFiles(file)
  let text: string
  try {
    text = fs.readFileSync(file, "utf8")
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw new SandboxStateError(`Cannot read the state file ${file}: ${(err as Error).message}`)
  }
  if (text.trim() === "") return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw invalid(file, `not JSON: ${(err as Error).message}`)
  }
  const problem = checkSaved(value)
  if (problem) throw invalid(file, problem)
  return value as SavedState
}

function invalid(file: string, why: string): SandboxStateError {
  return new SandboxStateError(
    `The state file ${file} is not a REFPAY sandbox state (${why}). Fix it, or move it away to start empty.`
  )
}

/** Writes `content` to `file` so that readers only ever see a complete file. */
export function writeAtomically(file: string, content: string): void {
  const temp = tempName(file, process.pid)
  try {
    const fd = fs.openSync(temp, "w", 0o600)
    try {
      fs.writeFileSync(fd, content)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(temp, file)
  } catch (err) {
    fs.rmSync(temp, { force: true })
    throw err
  }
  syncDirectory(path.dirname(file))
}

/** The rename itself reaches the disk only with the folder's entry; not every platform can fsync a folder. */
function syncDirectory(dir: string): void {
  let fd: number | undefined
  try {
    fd = fs.openSync(dir, "r")
    fs.fsyncSync(fd)
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** `<file>.<pid>.tmp` files whose process is gone: leftovers of a crash in the middle of a write. */
function removeStaleTempFiles(file: string): void {
  const dir = path.dirname(file)
  const base = path.basename(file)
  let names: string[]
  try {
    names = fs.readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    if (!name.startsWith(`${base}.`) || !name.endsWith(".tmp")) continue
    const pid = name.slice(base.length + 1, -".tmp".length)
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid || isAlive(Number(pid))) continue
    fs.rmSync(path.join(dir, name), { force: true })
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Saves the snapshot after changes: `changed()` marks the state dirty and saves within `delayMs` (one write for a
 * burst of requests); a save whose content equals the last one writes nothing. `flush()` saves now (on close).
 * A failed save is logged and tried again on the next change or at close; it never fails the request behind it.
 */
export class StateKeeper {
  private timer: NodeJS.Timeout | undefined
  private lastWritten: string | undefined
  /** Something may have changed since the last save. */
  private dirty = false
  private closed = false

  constructor(
    readonly file: string,
    private readonly capture: () => StateSnapshot,
    private readonly delayMs: number,
    private readonly log: (line: string) => void
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true })
  }

  /** The content last read or written, so an unchanged state is not rewritten after loading. */
  remember(snapshot: StateSnapshot): void {
    this.lastWritten = JSON.stringify(snapshot)
  }

  changed(): void {
    if (this.closed) return
    this.dirty = true
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.save()
    }, this.delayMs)
    // The listening server keeps a CLI alive; close() flushes what is pending.
    this.timer.unref()
  }

  /** Saves now what changed since the last save (nothing when nothing did). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    if (this.dirty) this.save()
  }

  close(): void {
    if (this.closed) return
    this.flush()
    this.closed = true
  }

  private save(): void {
    this.dirty = false
    const snapshot = this.capture()
    const body = JSON.stringify(snapshot)
    if (body === this.lastWritten) return
    const saved: SavedState = {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      saved_at: new Date().toISOString(),
      ...snapshot,
    }
    try {
      writeAtomically(this.file, `${JSON.stringify(saved, null, 1)}\n`)
      this.lastWritten = body
    } catch (err) {
      this.dirty = true
      this.log(`refpay-sandbox: could not save the state to ${this.file}: ${(err as Error).message}`)
    }
  }
}

/* ---------- validation of a loaded file ---------- */

const STATUSES = ["WAITING", "APPROVED", "CANCELLED", "EXPIRED"]

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v)
}

const isString = (v: unknown): v is string => typeof v === "string"

function isHttpUrl(value: string): boolean {
  try {
    webhookUrl(value)
    return true
  } catch {
    return false
  }
}
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v)

/** The first problem found, or undefined. Payments are checked for what the sandbox reads; more fields are kept. */
function checkSaved(v: unknown): string | undefined {
  if (!isObject(v)) return "not a JSON object"
  if (v.format !== STATE_FORMAT) return `"format" is not "${STATE_FORMAT}"`
  if (v.version !== STATE_VERSION) return `unsupported version ${JSON.stringify(v.version)}`
  if (!isNumber(v.clock_offset_ms)) return "clock_offset_ms is not a number"
  const w = v.webhooks
  if (!isObject(w)) return "webhooks is not an object"
  if (!(w.url === null || (isString(w.url) && isHttpUrl(w.url)))) return "webhooks.url is not an http(s) URL or null"
  if (w.auth !== "header" && w.auth !== "basic") return "webhooks.auth is not header or basic"
  if (!Number.isInteger(w.retries) || !Number.isInteger(w.backoff_ms))
    return "webhooks.retries or backoff_ms is not an integer"
  if (!Array.isArray(v.payments)) return "payments is not a list"
  for (const [i, p] of v.payments.entries()) {
    const problem = checkPayment(p)
    if (problem) return `payments[${i}]: ${problem}`
  }
  if (!Array.isArray(v.references) || !v.references.every(isString)) return "references is not a list of strings"
  if (!Array.isArray(v.idempotency)) return "idempotency is not a list"
  for (const [i, e] of v.idempotency.entries()) {
    if (!isObject(e) || !isString(e.key) || !isString(e.fingerprint) || !isObject(e.reply))
      return `idempotency[${i}] is malformed`
    if (!Number.isInteger(e.reply.status) || !isString(e.reply.body)) return `idempotency[${i}].reply is malformed`
  }
  return undefined
}

function checkPayment(p: unknown): string | undefined {
  if (!isObject(p)) return "not an object"
  for (const key of [
    "sellerId",
    "paymentId",
    "orderId",
    "entity",
    "reference",
    "reasonCode",
    "reasonMessage",
    "idempotencyKey",
  ]) {
    if (!isString(p[key])) return `${key} is not a string`
  }
  for (const key of ["amount", "refunded", "receivedAt", "updatedAt", "expiresAt"]) {
    if (!isNumber(p[key])) return `${key} is not a number`
  }
  if (!STATUSES.includes(p.status as string)) return `status ${JSON.stringify(p.status)} is unknown`
  if (!Array.isArray(p.records)) return "records is not a list"
  return undefined
}

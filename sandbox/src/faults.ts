import { t1CodeFor, t1Error, t2Error, reasonPhrase, type Area, type FieldProblem } from "./errors"
import { json, type Reply } from "./reply"
import { z } from "zod"
import { integerIn, object, says, validate } from "./validation"

/**
 * Scripted failures of platform calls (never of /__sandbox). A fault matches the next `count` requests
 * whose path starts with `path` (and whose method is `method`, when given). `when: "before"` fails the call
 * without doing its work; `when: "after"` does the work (a payment is created) and then fails the answer,
 * which is what an idempotent retry must survive.
 *
 * A hold fault (`hold: true`) stops each matching request at that point (before the work, or after it and before the
 * answer) until a test lets it go: POST /__sandbox/faults/{id}/release, DELETE /__sandbox/faults, reset, or its own
 * `hold_max_ms` running out, so a forgotten hold never hangs a run. Then the rest of the fault applies (delay, reset,
 * status), or nothing more and the request goes on as usual. A race is staged by holding one call and acting while
 * it waits, with no sleep.
 */
export interface Fault {
  id: number
  path: string
  method?: string
  remaining: number
  status?: number
  body?: unknown
  delayMs?: number
  reset: boolean
  when: "before" | "after"
  /** Present on a hold fault: the longest any one request is held. */
  hold?: { maxMs: number }
}

/** How a held request ended: let go (release, DELETE, reset), its hold_max_ms ran out, or its client went away. */
export type HoldEnd = "released" | "timed_out" | "dropped"

export const DEFAULT_HOLD_MAX_MS = 60_000

interface HeldRequest {
  end: (how: HoldEnd) => void
  timer: NodeJS.Timeout
}

/** What a hold fault holds now and has let go of; kept until DELETE or reset, so its id can still be released. */
interface Gate {
  fault: Fault
  waiting: HeldRequest[]
  released: number
  timedOut: number
}

export type ReleaseResult =
  { ok: true; released: number; fault: Fault } | { ok: false; reason: "NOT_FOUND" | "NOT_A_HOLD" }

export class FaultStore {
  private faults: Fault[] = []
  private readonly gates = new Map<number, Gate>()
  private nextId = 1

  add(spec: Omit<Fault, "id">): Fault {
    const fault = { ...spec, id: this.nextId++ }
    this.faults.push(fault)
    if (fault.hold) this.gates.set(fault.id, { fault, waiting: [], released: 0, timedOut: 0 })
    return fault
  }

  /** Hot path: one length check when no fault is set. The first match is consumed. */
  take(method: string, path: string): Fault | undefined {
    if (this.faults.length === 0) return undefined
    const index = this.faults.findIndex(
      (f) => path.startsWith(f.path) && (f.method === undefined || f.method === method)
    )
    if (index === -1) return undefined
    const fault = this.faults[index] as Fault
    if (--fault.remaining <= 0) this.faults.splice(index, 1)
    return fault
  }

  /**
   * Holds one request of a hold fault until it is let go; `drop` (its client went away) ends the hold at once. A
   * fault cleared since the request took it holds nothing: DELETE lets everything go, even what is not held yet.
   */
  hold(fault: Fault): { done: Promise<HoldEnd>; drop: () => void } {
    const gate = this.gates.get(fault.id)
    const maxMs = fault.hold?.maxMs
    if (!gate || maxMs === undefined) return { done: Promise.resolve("released"), drop: () => undefined }
    let resolve: (how: HoldEnd) => void = () => undefined
    const done = new Promise<HoldEnd>((r) => (resolve = r))
    const held: HeldRequest = {
      end: resolve,
      timer: setTimeout(() => {
        if (!remove(gate, held)) return
        gate.timedOut++
        resolve("timed_out")
      }, maxMs),
    }
    held.timer.unref()
    gate.waiting.push(held)
    const drop = () => {
      if (!remove(gate, held)) return
      clearTimeout(held.timer)
      resolve("dropped")
    }
    return { done, drop }
  }

  /** Lets go of the `count` longest-held requests of fault `id` (all it holds without `count`). */
  release(id: number, count?: number): ReleaseResult {
    const gate = this.gates.get(id)
    if (!gate) return { ok: false, reason: this.faults.some((f) => f.id === id) ? "NOT_A_HOLD" : "NOT_FOUND" }
    return { ok: true, released: letGo(gate, count ?? gate.waiting.length), fault: gate.fault }
  }

  /** The faults still to match, and the hold faults used up but still holding requests; by id. */
  list(): unknown[] {
    const spent = [...this.gates.values()]
      .filter((g) => g.fault.remaining <= 0 && g.waiting.length > 0)
      .map((g) => g.fault)
    return [...this.faults, ...spent].sort((a, b) => a.id - b.id).map((f) => this.view(f))
  }

  view(f: Fault): unknown {
    const gate = this.gates.get(f.id)
    return {
      id: f.id,
      path: f.path,
      method: f.method ?? null,
      remaining: f.remaining,
      status: f.status ?? null,
      delay_ms: f.delayMs ?? null,
      reset: f.reset,
      when: f.when,
      hold: f.hold !== undefined,
      hold_max_ms: f.hold?.maxMs ?? null,
      held: gate?.waiting.length ?? 0,
      released: gate?.released ?? 0,
      timed_out: gate?.timedOut ?? 0,
    }
  }

  /** DELETE /__sandbox/faults and reset: no fault matches any more, and every held request is let go. Returns how many. */
  clear(): number {
    this.faults = []
    let released = 0
    for (const gate of this.gates.values()) released += letGo(gate, gate.waiting.length)
    this.gates.clear()
    return released
  }

  /** The sandbox stops: held requests end without doing their work or answering (their sockets are being closed). */
  close(): void {
    this.faults = []
    for (const gate of this.gates.values()) {
      for (const held of gate.waiting.splice(0)) {
        clearTimeout(held.timer)
        held.end("dropped")
      }
    }
    this.gates.clear()
  }
}

function remove(gate: Gate, held: HeldRequest): boolean {
  const index = gate.waiting.indexOf(held)
  if (index === -1) return false
  gate.waiting.splice(index, 1)
  return true
}

function letGo(gate: Gate, count: number): number {
  const going = gate.waiting.splice(0, count)
  for (const held of going) {
    clearTimeout(held.timer)
    held.end("released")
  }
  gate.released += going.length
  return going.length
}

/** The answer of a status fault: the given body, else the platform's error body for that path. */
export function faultReply(fault: Fault, area: Area): Reply {
  const status = fault.status as number
  if (fault.body !== undefined) {
    return typeof fault.body === "string"
      ? { status, body: fault.body, contentType: "text/plain; charset=utf-8" }
      : json(status, fault.body)
  }
  if (area === "t1") return t1Error(status, t1CodeFor(status), "Injected fault")
  return t2Error(status, [{ description: reasonPhrase(status), detail: "INJECTED_FAULT" }])
}

const FaultBody = object({
  path: z
    .string(says("must be a path starting with /"))
    .startsWith("/", says("must be a path starting with /"))
    .refine((v) => !v.startsWith("/__sandbox"), says("must not target /__sandbox")),
  method: z
    .string(says("must be an HTTP method"))
    .regex(/^[A-Za-z]+$/, says("must be an HTTP method"))
    .optional(),
  count: integerIn(1, 1_000_000, "an integer >= 1").optional(),
  status: integerIn(100, 599, "an HTTP status from 100 to 599").optional(),
  /** Any JSON but null (a string is sent as text/plain). */
  body: z
    .unknown()
    .refine((v) => v !== null)
    .optional(),
  delay_ms: integerIn(0, 600_000, "an integer from 0 to 600000").optional(),
  reset: z.boolean(says("must be a boolean")).optional(),
  when: z.enum(["before", "after"], says('must be "before" or "after"')).optional(),
  hold: z.boolean(says("must be a boolean")).optional(),
  hold_max_ms: integerIn(1, 600_000, "an integer from 1 to 600000").optional(),
})

/** Reads a POST /__sandbox/faults body; a fault must do something (status, delay, reset or hold). */
export function parseFault(
  value: unknown
): { ok: true; spec: Omit<Fault, "id"> } | { ok: false; problems: FieldProblem[] } {
  const checked = validate(FaultBody, value)
  if (!checked.ok) return checked
  const v = checked.value
  const problems: FieldProblem[] = []
  if (v.status === undefined && v.delay_ms === undefined && v.reset !== true && v.hold !== true) {
    problems.push({ field: "status", message: "one of status, delay_ms, reset: true or hold: true is required" })
  }
  if (v.status !== undefined && v.reset === true)
    problems.push({ field: "reset", message: "cannot be combined with status" })
  if (v.hold_max_ms !== undefined && v.hold !== true)
    problems.push({ field: "hold_max_ms", message: "needs hold: true" })
  if (problems.length > 0) return { ok: false, problems }
  const spec: Omit<Fault, "id"> = {
    path: v.path,
    remaining: v.count ?? 1,
    reset: v.reset === true,
    when: v.when ?? "before",
  }
  if (v.method !== undefined) spec.method = v.method.toUpperCase()
  if (v.status !== undefined) spec.status = v.status
  if (v.body !== undefined) spec.body = v.body
  if (v.delay_ms !== undefined) spec.delayMs = v.delay_ms
  if (v.hold === true) spec.hold = { maxMs: v.hold_max_ms ?? DEFAULT_HOLD_MAX_MS }
  return { ok: true, spec }
}

/** POST /__sandbox/faults/{id}/release: how many of the held requests go (all it holds without `count`). */
export const ReleaseBody = object({ count: integerIn(1, 1_000_000, "an integer >= 1").optional() })

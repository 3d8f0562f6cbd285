import { t1CodeFor, t1Error, t2Error, reasonPhrase, type Area, type FieldProblem } from "./errors"
import { json, type Reply } from "./reply"
import { z } from "zod"
import { integerIn, object, says, validate } from "./validation"

/**
 * Scripted failures of platform calls (never of /__sandbox). A fault matches the next `count` requests
 * whose path starts with `path` (and whose method is `method`, when given). `when: "before"` fails the call
 * without doing its work; `when: "after"` does the work (a payment is created) and then fails the answer,
 * which is what an idempotent retry must survive.
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
}

export class FaultStore {
  private faults: Fault[] = []
  private nextId = 1

  add(spec: Omit<Fault, "id">): Fault {
    const fault = { ...spec, id: this.nextId++ }
    this.faults.push(fault)
    return fault
  }

  /** Hot path: one length check when no fault is set. The first match is consumed. */
  take(method: string, path: string): Fault | undefined {
    if (this.faults.length === 0) return undefined
    const index = this.faults.findIndex((f) => path.startsWith(f.path) && (f.method === undefined || f.method === method))
    if (index === -1) return undefined
    const fault = this.faults[index] as Fault
    if (--fault.remaining <= 0) this.faults.splice(index, 1)
    return fault
  }

  list(): unknown[] {
    return this.faults.map(faultView)
  }

  clear(): void {
    this.faults = []
  }
}

export function faultView(f: Fault): unknown {
  return {
    id: f.id,
    path: f.path,
    method: f.method ?? null,
    remaining: f.remaining,
    status: f.status ?? null,
    delay_ms: f.delayMs ?? null,
    reset: f.reset,
    when: f.when,
  }
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
  method: z.string(says("must be an HTTP method")).regex(/^[A-Za-z]+$/, says("must be an HTTP method")).optional(),
  count: integerIn(1, 1_000_000, "an integer >= 1").optional(),
  status: integerIn(100, 599, "an HTTP status from 100 to 599").optional(),
  /** Any JSON but null (a string is sent as text/plain). */
  body: z.unknown().refine((v) => v !== null).optional(),
  delay_ms: integerIn(0, 600_000, "an integer from 0 to 600000").optional(),
  reset: z.boolean(says("must be a boolean")).optional(),
  when: z.enum(["before", "after"], says('must be "before" or "after"')).optional(),
})

/** Reads a POST /__sandbox/faults body; a fault must do something (status, delay or reset). */
export function parseFault(value: unknown): { ok: true; spec: Omit<Fault, "id"> } | { ok: false; problems: FieldProblem[] } {
  const checked = validate(FaultBody, value)
  if (!checked.ok) return checked
  const v = checked.value
  if (v.status === undefined && v.delay_ms === undefined && v.reset !== true) {
    return { ok: false, problems: [{ field: "status", message: "one of status, delay_ms or reset: true is required" }] }
  }
  if (v.status !== undefined && v.reset === true) {
    return { ok: false, problems: [{ field: "reset", message: "cannot be combined with status" }] }
  }
  const spec: Omit<Fault, "id"> = { path: v.path, remaining: v.count ?? 1, reset: v.reset === true, when: v.when ?? "before" }
  if (v.method !== undefined) spec.method = v.method.toUpperCase()
  if (v.status !== undefined) spec.status = v.status
  if (v.body !== undefined) spec.body = v.body
  if (v.delay_ms !== undefined) spec.delayMs = v.delay_ms
  return { ok: true, spec }
}

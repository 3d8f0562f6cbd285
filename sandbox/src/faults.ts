import { t1CodeFor, t1Error, t2Error, reasonPhrase, type Area, type FieldProblem } from "./errors"
import { json, type Reply } from "./reply"
import { isPlainObject, validate, object, optional, required, type Check } from "./validation"

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

const anything: Check = () => undefined

function integerIn(min: number, max: number, what: string): Check {
  return (value, path, out) => {
    if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) out.push({ field: path, message: `must be ${what}` })
  }
}

const checkFault = object({
  path: required((v, p, out) => {
    if (typeof v !== "string" || !v.startsWith("/")) out.push({ field: p, message: "must be a path starting with /" })
    else if (v.startsWith("/__sandbox")) out.push({ field: p, message: "must not target /__sandbox" })
  }),
  method: optional((v, p, out) => {
    if (typeof v !== "string" || !/^[A-Za-z]+$/.test(v)) out.push({ field: p, message: "must be an HTTP method" })
  }),
  count: optional(integerIn(1, 1_000_000, "an integer >= 1")),
  status: optional(integerIn(100, 599, "an HTTP status from 100 to 599")),
  body: optional(anything),
  delay_ms: optional(integerIn(0, 600_000, "an integer from 0 to 600000")),
  reset: optional((v, p, out) => {
    if (typeof v !== "boolean") out.push({ field: p, message: "must be a boolean" })
  }),
  when: optional((v, p, out) => {
    if (v !== "before" && v !== "after") out.push({ field: p, message: 'must be "before" or "after"' })
  }),
})

/** Reads a POST /__sandbox/faults body; a fault must do something (status, delay or reset). */
export function parseFault(value: unknown): { ok: true; spec: Omit<Fault, "id"> } | { ok: false; problems: FieldProblem[] } {
  const problems = validate(checkFault, value)
  if (problems.length > 0 || !isPlainObject(value)) return { ok: false, problems }
  if (value.status === undefined && value.delay_ms === undefined && value.reset !== true) {
    return { ok: false, problems: [{ field: "status", message: "one of status, delay_ms or reset: true is required" }] }
  }
  if (value.status !== undefined && value.reset === true) {
    return { ok: false, problems: [{ field: "reset", message: "cannot be combined with status" }] }
  }
  const spec: Omit<Fault, "id"> = {
    path: value.path as string,
    remaining: (value.count as number | undefined) ?? 1,
    reset: value.reset === true,
    when: (value.when as "before" | "after" | undefined) ?? "before",
  }
  if (typeof value.method === "string") spec.method = value.method.toUpperCase()
  if (value.status !== undefined) spec.status = value.status as number
  if (value.body !== undefined) spec.body = value.body
  if (value.delay_ms !== undefined) spec.delayMs = value.delay_ms as number
  return { ok: true, spec }
}

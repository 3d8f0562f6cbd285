import type { FieldProblem } from "./errors"

/**
 * A small strict schema checker: it reports every problem at once, one entry per field with its dotted
 * path, and refuses unknown fields at any level (the platform does, and a client typo must fail a test).
 */
export type Check = (value: unknown, path: string, out: FieldProblem[]) => void

interface Field {
  required: boolean
  check: Check
}

export const required = (check: Check): Field => ({ required: true, check })
export const optional = (check: Check): Field => ({ required: false, check })

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`
}

export function object(fields: Record<string, Field>): Check {
  const names = Object.keys(fields)
  const known = new Set(names)
  return (value, path, out) => {
    if (!isPlainObject(value)) {
      out.push({ field: path === "" ? "body" : path, message: "must be an object" })
      return
    }
    for (const name of names) {
      const field = fields[name] as Field
      const v = value[name]
      const p = join(path, name)
      if (v === undefined) {
        if (field.required) out.push({ field: p, message: "is required" })
      } else if (v === null) {
        out.push({ field: p, message: "must not be null" })
      } else {
        field.check(v, p, out)
      }
    }
    for (const key of Object.keys(value)) {
      if (!known.has(key)) out.push({ field: join(path, key), message: "is not allowed" })
    }
  }
}

export function string(rule: { min?: number; max?: number } = {}): Check {
  return (value, path, out) => {
    if (typeof value !== "string") return void out.push({ field: path, message: "must be a string" })
    if (rule.min !== undefined && value.length < rule.min) {
      out.push({ field: path, message: `must be at least ${rule.min} character${rule.min === 1 ? "" : "s"}` })
    } else if (rule.max !== undefined && value.length > rule.max) {
      out.push({ field: path, message: `must be at most ${rule.max} characters` })
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID.test(value)
}

export const uuid: Check = (value, path, out) => {
  if (typeof value !== "string") return void out.push({ field: path, message: "must be a string" })
  if (!UUID.test(value)) out.push({ field: path, message: "must be a UUID" })
}

export function literal(expected: string): Check {
  return (value, path, out) => {
    if (value !== expected) out.push({ field: path, message: `must be "${expected}"` })
  }
}

/** Integer cents: a JSON number (never a string), whole, safe and above zero. */
export const positiveCents: Check = (value, path, out) => {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    out.push({ field: path, message: "must be an integer number of cents greater than 0" })
  }
}

const countryCode: Check = (value, path, out) => {
  if (typeof value !== "string") return void out.push({ field: path, message: "must be a string" })
  if (!/^[A-Z]{2}$/.test(value)) out.push({ field: path, message: "must be an ISO 3166-1 alpha-2 code, e.g. PT" })
}

const text = string()

const address = object({
  street: optional(text),
  number: optional(text),
  complement: optional(text),
  district: optional(text),
  city: optional(text),
  state: optional(text),
  country: optional(countryCode),
  postal_code: optional(text),
})

const customer = object({
  email: optional(text),
  document_number: optional(text),
  document_type: optional(text),
  name: optional(text),
  phone_number: optional(text),
  billing_address: optional(address),
  shippings: optional(object({ address: optional(address) })),
})

/** Spec 2.5. */
export const checkCreatePayment = object({
  idempotency_key: required(uuid),
  request_id: required(uuid),
  order_id: required(string({ min: 1, max: 35 })),
  data: required(
    object({
      amount: required(positiveCents),
      currency: required(literal("EUR")),
      payment: required(
        object({
          payment_id: required(uuid),
          payment_method: required(literal("CASH_PAYMENT")),
          brand: required(literal("REFPAY")),
        }),
      ),
      additional_data: optional(object({ customer: optional(customer) })),
    }),
  ),
})

export interface CreatePaymentRequest {
  idempotency_key: string
  request_id: string
  order_id: string
  data: {
    amount: number
    currency: "EUR"
    payment: { payment_id: string; payment_method: "CASH_PAYMENT"; brand: "REFPAY" }
    additional_data?: { customer?: Record<string, unknown> }
  }
}

/** Contract page, cancel and refund. */
export const checkCancelPayment = object({
  idempotency_key: required(uuid),
  payment_id: required(uuid),
  amount: required(positiveCents),
  payment_method: required(literal("CASH_PAYMENT")),
  request_id: optional(uuid),
})

export interface CancelPaymentRequest {
  idempotency_key: string
  payment_id: string
  amount: number
  payment_method: "CASH_PAYMENT"
  request_id?: string
}

/** Spec 4.2: four strings, each may be empty (rule 1), none may be missing or null (rule 2). */
export const checkT2Body = object({
  branch: required(text),
  login: required(text),
  name: required(text),
  enrollment_number: required(text),
})

export function validate(check: Check, value: unknown): FieldProblem[] {
  const out: FieldProblem[] = []
  check(value, "", out)
  return out
}

export type Parsed = { ok: true; value: unknown } | { ok: false }

export function parseJson(body: Buffer): Parsed {
  try {
    return { ok: true, value: JSON.parse(body.toString("utf8")) }
  } catch {
    return { ok: false }
  }
}

/** True when the Content-Type's media type (parameters such as charset ignored) is `expected`. */
export function hasMediaType(header: string | undefined, expected: string): boolean {
  if (header === undefined) return false
  const semi = header.indexOf(";")
  const type = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase()
  return type === expected
}

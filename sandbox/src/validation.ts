import { z } from "zod"
import type { FieldProblem } from "./errors"

/**
 * Request bodies are checked by strict zod schemas: every problem is reported at once, one entry per field with its
 * dotted path, and unknown fields are refused at any level (the platform does, and a client typo must fail a test).
 * Each schema names what a wrong value must be (`says`); what every field shares (missing, null, unknown) is worded
 * once, by `shared`.
 */
type Issue = z.core.$ZodRawIssue

/** Missing, null (below the root) and unknown keys are worded alike for every field, by `shared`. */
function isShared(issue: Issue): boolean {
  return (
    issue.code === "unrecognized_keys" ||
    issue.input === undefined ||
    (issue.input === null && (issue.path?.length ?? 0) > 0)
  )
}

/** The message of a field whose value is there but wrong. */
export function says(message: string): { error: (issue: Issue) => string | undefined } {
  return { error: (issue) => (isShared(issue) ? undefined : message) }
}

function shared(issue: Issue): string | undefined {
  if (issue.code === "unrecognized_keys") return "is not allowed"
  if (issue.input === undefined) return "is required"
  if (issue.input === null) return "must not be null"
  return undefined
}

export type Validated<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] }

/**
 * Every problem of `value`, at most one per field, in the order of the schema (an object's unknown keys after its
 * fields). A valid value comes back as sent, not as zod rebuilds it: stored echoes and fingerprints keep its key order.
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown): Validated<z.infer<S>> {
  const result = schema.safeParse(value, { error: shared, jitless: true })
  if (result.success) return { ok: true, value: value as z.infer<S> }
  const problems: FieldProblem[] = []
  const seen = new Set<string>()
  const add = (field: string, message: string) => {
    if (seen.has(field)) return
    seen.add(field)
    problems.push({ field, message })
  }
  for (const issue of result.error.issues) {
    const at = issue.path.join(".")
    if (issue.code === "unrecognized_keys")
      for (const key of issue.keys) add(at === "" ? key : `${at}.${key}`, issue.message)
    else add(at === "" ? "body" : at, issue.message)
  }
  return { ok: false, problems }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** A strict object: unknown keys are refused. */
export function object<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, says("must be an object"))
}

const text = z.string(says("must be a string"))

/** A whole JSON number from `min` to `max`; anything else is told it "must be `what`". */
export function integerIn(min: number, max: number, what: string) {
  const message = says(`must be ${what}`)
  return z.int(message).min(min, message).max(max, message)
}

/** Any 8-4-4-4-12 hex UUID, any version, either case. */
const uuid = z.guid({
  error: (issue) =>
    isShared(issue) ? undefined : issue.code === "invalid_type" ? "must be a string" : "must be a UUID",
})

export function isUuid(value: string): boolean {
  return uuid.safeParse(value).success
}

function literal<const T extends string>(expected: T) {
  return z.literal(expected, says(`must be "${expected}"`))
}

/** Integer cents: a JSON number (never a string), whole, safe and above zero. */
const positiveCents = z
  .int(says("must be an integer number of cents greater than 0"))
  .positive(says("must be an integer number of cents greater than 0"))

const countryCode = z
  .string(says("must be a string"))
  .regex(/^[A-Z]{2}$/, says("must be an ISO 3166-1 alpha-2 code, e.g. PT"))

const address = object({
  street: text.optional(),
  number: text.optional(),
  complement: text.optional(),
  district: text.optional(),
  city: text.optional(),
  state: text.optional(),
  country: countryCode.optional(),
  postal_code: text.optional(),
})

const customer = object({
  email: text.optional(),
  document_number: text.optional(),
  document_type: text.optional(),
  name: text.optional(),
  phone_number: text.optional(),
  billing_address: address.optional(),
  shippings: object({ address: address.optional() }).optional(),
})

/** Spec 2.5. */
export const CreatePaymentBody = object({
  idempotency_key: uuid,
  request_id: uuid,
  order_id: z
    .string(says("must be a string"))
    .min(1, says("must be at least 1 character"))
    .max(35, says("must be at most 35 characters")),
  data: object({
    amount: positiveCents,
    currency: literal("EUR"),
    payment: object({
      payment_id: uuid,
      payment_method: literal("CASH_PAYMENT"),
      brand: literal("REFPAY"),
    }),
    additional_data: object({ customer: customer.optional() }).optional(),
  }),
})

export type CreatePaymentRequest = z.infer<typeof CreatePaymentBody>

/** Contract page, cancel and refund. */
export const CancelPaymentBody = object({
  idempotency_key: uuid,
  payment_id: uuid,
  amount: positiveCents,
  payment_method: literal("CASH_PAYMENT"),
  request_id: uuid.optional(),
})

export type CancelPaymentRequest = z.infer<typeof CancelPaymentBody>

/** Spec 4.2: four strings, each may be empty (rule 1), none may be missing or null (rule 2). */
export const T2Body = object({
  branch: text,
  login: text,
  name: text,
  enrollment_number: text,
})

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

import { z } from "zod"
import type { FieldProblem } from "./errors"
import { webhookUrl as checkWebhookUrl } from "./options"
import { integerIn, object, says, validate, type Validated } from "./validation"

/**
 * The bodies of the `/__sandbox` controls that take one, checked the way the platform routes are (strict zod
 * schemas, every problem at once, unknown fields last). A rule that ties two fields together is checked after the
 * schema passes, so each field is first told what is wrong with it alone.
 */

/** POST /__sandbox/payments/:id/pay and /__sandbox/references/:entity/:reference/pay */
export const PayBody = object({ force: z.boolean(says("must be a boolean")).optional() })

const CLOCK_MOVES = ["advance_ms", "advance_days", "set"] as const
const finite = z.number(says("must be a number"))

/** A clock target: an ISO 8601 time or epoch milliseconds; NaN when it is neither. */
function epochOf(value: unknown): number {
  if (typeof value === "number") return value
  if (typeof value === "string") return Date.parse(value)
  return NaN
}

/** POST /__sandbox/clock: exactly one of the three moves. */
const ClockSchema = object({
  advance_ms: finite.optional(),
  advance_days: finite.optional(),
  set: z
    .custom<number | string>((v) => Number.isFinite(epochOf(v)), says("must be an ISO 8601 time or epoch ms"))
    .optional(),
})

/** The latest instant an ISO 8601 time shows with a four-digit year. */
const LAST_SHOWN_INSTANT = Date.parse("9999-12-31T23:59:59.999Z")
const CLOCK_RANGE = "must keep the clock between 1970-01-01 and 9999-12-31"

/** What the clock does: move by an amount (exact, so offsets add up) or jump to an instant. */
export type ClockMove = { by: number } | { to: number }

/**
 * Reads a clock body into its move, `now` being the sandbox clock's current time. A move that would leave the years
 * an ISO 8601 time can show is refused: every view of a token or a payment prints the clock's time.
 */
export function parseClockBody(value: unknown, now: number): Validated<ClockMove> {
  const checked = validate(ClockSchema, value)
  if (!checked.ok) return checked
  const { advance_ms, advance_days, set } = checked.value
  const given = CLOCK_MOVES.filter((k) => checked.value[k] !== undefined)
  if (given.length !== 1) return refused("body", "exactly one of advance_ms, advance_days or set is required")
  const move: ClockMove =
    advance_ms !== undefined
      ? { by: advance_ms }
      : advance_days !== undefined
        ? { by: advance_days * 86_400_000 }
        : { to: epochOf(set) }
  const lands = "by" in move ? now + move.by : move.to
  if (!(lands >= 0 && lands <= LAST_SHOWN_INSTANT)) return refused(given[0] as string, CLOCK_RANGE)
  return { ok: true, value: move }
}

/** POST /__sandbox/webhooks/config: a partial update; `url: null` or `secret: null` removes them. */
export const WebhookConfigBody = object({
  url: z
    .string(says("must be an absolute http(s) URL or null"))
    .refine(isHttpUrl, says("must be an absolute http(s) URL or null"))
    .nullable()
    .optional(),
  secret: z
    .string(says("must be a non-empty string or null"))
    .min(1, says("must be a non-empty string or null"))
    .nullable()
    .optional(),
  auth: z.enum(["header", "basic"], says('must be "header" or "basic"')).optional(),
  retries: integerIn(0, 100, "an integer from 0 to 100").optional(),
  backoff_ms: integerIn(0, 3_600_000, "an integer from 0 to 3600000").optional(),
  timeout_ms: integerIn(100, 300_000, "an integer from 100 to 300000").optional(),
})

function isHttpUrl(value: string): boolean {
  try {
    checkWebhookUrl(value)
    return true
  } catch {
    return false
  }
}

const DELAY_MS = "an integer from 0 to 600000 for mode delay"

/** POST /__sandbox/webhooks/faults: mode delay needs its delay_ms. */
const WebhookFaultSchema = object({
  mode: z.enum(["drop", "duplicate", "delay"], says('must be "drop", "duplicate" or "delay"')),
  count: integerIn(1, Number.MAX_SAFE_INTEGER, "an integer >= 1").optional(),
  copies: integerIn(2, 100, "an integer from 2 to 100").optional(),
  delay_ms: integerIn(0, 600_000, DELAY_MS).optional(),
})

export type WebhookFaultBody = z.infer<typeof WebhookFaultSchema>

export function parseWebhookFaultBody(value: unknown): Validated<WebhookFaultBody> {
  const checked = validate(WebhookFaultSchema, value)
  if (!checked.ok) return checked
  if (checked.value.mode === "delay" && checked.value.delay_ms === undefined)
    return refused("delay_ms", `must be ${DELAY_MS}`)
  return checked
}

const digits = (n: number) =>
  z.string(says(`must be ${n} digits`)).regex(new RegExp(`^\\d{${n}}$`), says(`must be ${n} digits`))

/** POST /__sandbox/next-reference */
export const NextReferenceBody = object({ entity: digits(5).optional(), reference: digits(9) })

const PaymentReference = object({ entity: digits(5), reference: digits(9) })

/** The path of /__sandbox/references/:entity/:reference/...: spaces ignored ("123 456 789" as a reference is shown). */
export function parsePaymentReference(
  entity: string,
  reference: string
): Validated<{ entity: string; reference: string }> {
  const value = { entity: entity.replace(/\s+/g, ""), reference: reference.replace(/\s+/g, "") }
  const checked = validate(PaymentReference, value)
  return checked.ok ? { ok: true, value } : checked
}

function refused(field: string, message: string): { ok: false; problems: FieldProblem[] } {
  return { ok: false, problems: [{ field, message }] }
}

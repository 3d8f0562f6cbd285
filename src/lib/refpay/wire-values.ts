import { z } from "zod"

/**
 * The values the platform's bodies are made of, shared by every schema (token-schemas.ts, error-bodies.ts,
 * payment-schemas.ts). Strict where a wrong type would do harm (entity and reference must be strings, so leading
 * zeros survive; amounts must be whole cents), lenient elsewhere (null is read as absent).
 */

/** A string the platform may also send as null or leave out; the schema's final transform reads null as absent. */
export const nullableString = z.string().nullish()

/** An optional string the platform may also send as null, read as absent. */
export const optionalString = nullableString.transform((v) => v ?? undefined)

const DIGITS = /^\d+$/

/** A string of digits or a JSON integer >= 0, in either case exact as a JavaScript number. */
function isWholeCents(value: unknown): boolean {
  if (typeof value === "string") return DIGITS.test(value) && Number.isSafeInteger(Number(value))
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0
}

/**
 * Whole cents as the platform writes them: a string of digits (spec 2.6); a JSON integer is accepted too. One
 * predicate rather than a union of two schemas plus a refinement, because the creation answer is parsed on every
 * payment and the union was its costliest field.
 */
export const wireCents = z.custom<string | number>(isWholeCents, {
  message: "expected whole cents: a string of digits or an integer >= 0, at most 2^53 - 1",
})

/** Whole cents handed on as the string of digits. */
export const centsValue = wireCents.transform((v) => String(v))

export const optionalCents = centsValue.nullish().transform((v) => v ?? undefined)

/** Entity and reference: kept as the exact strings returned (spec 4.3), so a number is refused, not coerced. */
export const displayCode = z.string().min(1)

export function cents(raw: string): number
export function cents(raw: string | undefined): number | undefined
export function cents(raw: string | undefined): number | undefined {
  return raw === undefined ? undefined : Number(raw)
}

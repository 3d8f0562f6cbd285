import { z } from "@medusajs/framework/zod"

/**
 * The kinds of value a provider option takes, each checking and converting what a shop writes in medusa-config or,
 * as text, in an environment variable. `fix` is what the boot error tells the shop to set the variable to.
 */

export const text = z.string().trim()

export const int = (min: number) => z.coerce.number().int().min(min)

/** Comma-separated hosts in a variable ("a.test, b.test"), a list in medusa-config. */
export const hostList = z.preprocess(
  (value) =>
    typeof value === "string"
      ? value
          .split(",")
          .map((h) => h.trim())
          .filter(Boolean)
      : value,
  z.array(z.string())
)

const yesNo = z.preprocess((value) => {
  if (typeof value !== "string") return value
  const normalized = value.trim().toLowerCase()
  if (["true", "1", "yes"].includes(normalized)) return true
  if (["false", "0", "no"].includes(normalized)) return false
  return value
}, z.boolean())

/**
 * Euros as a shop owner writes them ("0.50", "99999.99"; a number in medusa-config): a dot, at most two decimals,
 * above zero. Kept as the text it was written as (no float on the way); `resolveOptions` makes it cents with `toCents`.
 * Nine digits before the dot at most, far above any network's limit, so the cents always fit a safe integer.
 */
const euros = z.preprocess(
  (value) => (typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : value),
  z
    .string()
    .regex(/^\d{1,9}(\.\d{1,2})?$/)
    .refine((value) => /[1-9]/.test(value))
)

/** An amount option in euros; its fix says how to write one. */
export function amount(fallback: string) {
  return {
    schema: euros.default(fallback),
    fix: 'an amount in euros above zero, with a dot and at most two decimals (e.g. "0.50")',
  }
}

/** An option that takes one of a few words; its fix lists them. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return { schema: z.enum(values).default(fallback), fix: values.map((value) => `"${value}"`).join(" or ") }
}

/** A yes/no option: true/false, 1/0 or yes/no in the environment. */
export function flag(fallback: boolean) {
  return { schema: yesNo.default(fallback), fix: '"true" or "false"' }
}

import type { z } from "@medusajs/framework/zod"
import { OPTION_FIELDS, type OptionField, type RefpayOptionName } from "./options-schema"

/** A wrong or missing setting; its message lists every one with the variable to set, never a value. */
export class RefpayOptionsError extends Error {
  override name = "RefpayOptionsError"
}

/** "set REFPAY_X to ..." for an option whose field says how to fix it. */
export function howToFix(key: RefpayOptionName): string | undefined {
  const field: OptionField = OPTION_FIELDS[key]
  if (!field.fix) return undefined
  return field.env ? `set ${field.env} to ${field.fix}` : `set the provider option "${key}" to ${field.fix}`
}

/** One schema issue as the boot error says it: the option, its variable, and how to fix it. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const key = String(issue.path[0])
  if (!(key in OPTION_FIELDS)) return `${key}: ${issue.message}`
  const field: OptionField = OPTION_FIELDS[key as RefpayOptionName]
  const variable = field.env ? ` (${field.env})` : ""
  // zod's message never repeats the value for these checks, so no secret can leak through it.
  return `${key}${variable}: ${howToFix(key as RefpayOptionName) ?? issue.message}`
}

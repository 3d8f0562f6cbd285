import type { z } from "@medusajs/framework/zod"
import { howToFix, RefpayOptionsError } from "./option-errors"
import { OPTION_FIELDS } from "./options-schema"

/** The poll job's schedule at the default `pollEverySeconds` (60): on every minute, as it always ran. */
export const POLL_EVERY_MINUTE = "* * * * *"

/**
 * Settings of the whole shop rather than of one account: read before any provider exists (the poll job's
 * schedule when Medusa loads its jobs, the webhook syncs' queue), so from their variable only.
 */
const SHOP_WIDE_SETTINGS = ["pollEverySeconds", "webhookSyncsAtOnce", "pollSpread"] as const
type ShopWideSetting = (typeof SHOP_WIDE_SETTINGS)[number]
type ShopWideValue<K extends ShopWideSetting> = z.infer<(typeof OPTION_FIELDS)[K]["schema"]>

/** A shop-wide setting from its variable (the only place it is read from). */
export function shopWideSetting<K extends ShopWideSetting>(
  key: K,
  env: NodeJS.ProcessEnv = process.env
): ShopWideValue<K> {
  const field = OPTION_FIELDS[key]
  const raw = env[field.env]
  const parsed = field.schema.safeParse(raw === "" ? undefined : raw)
  if (!parsed.success) {
    throw new RefpayOptionsError(`REFPAY provider options are invalid: ${key} (${field.env}): ${howToFix(key)}`)
  }
  return parsed.data as ShopWideValue<K>
}

/**
 * The poll job's `schedule` (src/jobs/refpay-poll-payments.ts), read when Medusa loads the job module, before any
 * provider exists: so from the environment only (REFPAY_POLL_EVERY_SECONDS), one for the whole shop. The default, 60,
 * is the cron `* * * * *` (on every minute); fewer seconds are Medusa's `{ interval: ms }`.
 */
export function pollJobSchedule(env: NodeJS.ProcessEnv = process.env): string | { interval: number } {
  const seconds = shopWideSetting("pollEverySeconds", env)
  return seconds === 60 ? POLL_EVERY_MINUTE : { interval: seconds * 1000 }
}

/**
 * A shop-wide setting is read from its variable alone (shopWideSetting): a provider option or an account's variable
 * that says otherwise would be silently ignored, so it is refused.
 */
export function checkShopWideSettings(
  resolved: { [K in ShopWideSetting]: ShopWideValue<K> },
  env: NodeJS.ProcessEnv,
  problems: string[]
) {
  for (const key of SHOP_WIDE_SETTINGS) {
    const shopWide = shopWideSetting(key, env)
    if (resolved[key] === shopWide) continue
    const { env: variable } = OPTION_FIELDS[key]
    problems.push(
      `${key} is ${resolved[key]} here but the shop runs with ${shopWide}: it is read from ${variable} only (one ` +
        `setting for the whole shop); set ${variable} instead of the provider option or an account's variable`
    )
  }
}

import type { MedusaContainer } from "@medusajs/framework/types"
import { pollJobSchedule } from "../config"
import { pollRefpayPayments } from "../sync-triggers/poll/poll"

/**
 * Every minute (or every REFPAY_POLL_EVERY_SECONDS): check the REFPAY payments that are due (waiting ones, and
 * cancelled ones a late bank settlement could still pay), and expire references unpaid past validity plus grace. A
 * run still running skips the next.
 */
export default async function refpayPollPayments(container: MedusaContainer): Promise<void> {
  await pollRefpayPayments(container, new Date(), { skipIfBusy: true })
}

// Read when Medusa loads this module, before any provider exists, so from the environment (the pollEverySeconds
// entry of OPTION_FIELDS, REFPAY_POLL_EVERY_SECONDS): unset or 60 is the cron "* * * * *", fewer seconds
// `{ interval: ms }`. The provider refuses to boot when its own options say otherwise.
export const config = { name: "refpay-poll-payments", schedule: pollJobSchedule() }

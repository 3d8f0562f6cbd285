import type { MedusaContainer } from "@medusajs/framework/types"
import { pollRefpayPayments } from "../workflows/refpay-sync/poll"

/**
 * Every minute: check the REFPAY payments that are due (waiting ones, and cancelled ones a late bank settlement
 * could still pay), and expire references unpaid past validity plus grace. A tick still running skips the next.
 */
export default async function refpayPollPayments(container: MedusaContainer): Promise<void> {
  await pollRefpayPayments(container, new Date(), { skipIfBusy: true })
}

export const config = { name: "refpay-poll-payments", schedule: "* * * * *" }

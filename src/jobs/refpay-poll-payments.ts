import type { MedusaContainer } from "@medusajs/framework/types"
import { pollRefpayPayments } from "../workflows/refpay-sync/poll"

/** Every minute: check REFPAY payments still awaiting the customer (late webhooks, expiry at D+7 plus grace). */
export default async function refpayPollPayments(container: MedusaContainer): Promise<void> {
  await pollRefpayPayments(container)
}

export const config = { name: "refpay-poll-payments", schedule: "* * * * *" }

import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { syncOrderReferences } from "../sync-triggers/sync-order"

/**
 * An order cancelled in Medusa must not keep a payable reference. Medusa does not call the provider for a
 * `pending_authorization` session, so each REFPAY session of the order goes through the same locked sync as a
 * webhook: it cancels the reference on the platform and records what the platform did (a cancellation, or a refund
 * when the customer's payment landed first). A failure is retried by the poll job.
 */
export default async function refpayOrderCanceled({ event, container }: SubscriberArgs<{ id: string }>) {
  await syncOrderReferences(container, event.data.id, "order_canceled")
}

export const config: SubscriberConfig = { event: "order.canceled" }

import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OrderEditWorkflowEvents, OrderWorkflowEvents } from "@medusajs/framework/utils"
import { syncOrderReferences } from "../sync-triggers/sync-order"

/**
 * Medusa sets an unpaid order's payment collection to the new total when the shop confirms an order edit, a claim,
 * an exchange or a return. Each REFPAY session of the order then goes through the locked sync, which sees the
 * collection ask for another amount than the reference: it cancels the old reference (recording the customer's
 * payment if it landed first) and issues one for the new amount. A failure is retried by the poll job.
 */
export default async function refpayOrderChanged({ event, container }: SubscriberArgs<{ order_id: string }>) {
  await syncOrderReferences(container, event.data.order_id, "order_changed")
}

export const config: SubscriberConfig = {
  event: [
    OrderEditWorkflowEvents.CONFIRMED,
    OrderWorkflowEvents.CLAIM_CREATED,
    OrderWorkflowEvents.EXCHANGE_CREATED,
    OrderWorkflowEvents.RETURN_REQUESTED,
    OrderWorkflowEvents.RETURN_RECEIVED,
  ],
}

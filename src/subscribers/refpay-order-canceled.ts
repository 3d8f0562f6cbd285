import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { cancelRefpayReferencesWorkflow } from "../workflows/cancel-refpay-references"

/** An order cancelled in Medusa must not keep a payable reference: cancel it on the platform. */
export default async function refpayOrderCanceled({ event, container }: SubscriberArgs<{ id: string }>) {
  await cancelRefpayReferencesWorkflow(container).run({ input: { order_id: event.data.id } })
}

export const config: SubscriberConfig = { event: "order.canceled" }

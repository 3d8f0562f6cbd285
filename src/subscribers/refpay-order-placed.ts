import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { paymentInstructionsNotification } from "../rules/payment-instructions"
import { sendRefpayNotification } from "../workflows/refpay-notify/send-notification"
import { loadOrderPaymentView } from "../queries/payment-view"

/**
 * A REFPAY order was placed: e-mail the customer how to pay (entity, reference, amount, deadline) through Medusa's
 * Notification module, template `refpay-payment-instructions`. Sending is best effort: a shop without an e-mail
 * provider, or a provider that fails, never affects the order.
 */
export default async function refpayOrderPlaced({ event, container }: SubscriberArgs<{ id: string }>) {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  try {
    await sendPaymentInstructions(container, event.data.id, logger)
  } catch (error) {
    logger.warn(`REFPAY: payment instructions e-mail for order ${event.data.id} not sent: ${(error as Error).message}`)
  }
}

async function sendPaymentInstructions(container: MedusaContainer, orderId: string, logger: Logger): Promise<void> {
  let view
  try {
    view = (await loadOrderPaymentView(container, orderId)).view
  } catch (error) {
    if (error instanceof MedusaError && error.type === MedusaError.Types.NOT_FOUND) return // not a REFPAY order
    throw error
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "display_id", "email"],
    filters: { id: orderId },
  })
  const decision = paymentInstructionsNotification(view, data[0] ?? { id: orderId })
  if (!decision.send) {
    logger.info(`REFPAY: no payment instructions e-mail for order ${orderId}: ${decision.reason}`)
    return
  }
  await sendRefpayNotification(container, decision.notification)
}

export const config: SubscriberConfig = { event: "order.placed" }

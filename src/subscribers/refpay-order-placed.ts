import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { paymentInstructionsNotification } from "../rules/payment-instructions"
import { sendRefpayNotification } from "../workflows/refpay-notify/send-notification"
import { loadPlacedOrderPayment } from "../queries/payment-view"

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
  const placed = await loadPlacedOrderPayment(container, orderId)
  if (!placed) return // not a REFPAY order
  const decision = paymentInstructionsNotification(placed.view, placed.order)
  if (!decision.send) {
    logger.info(`REFPAY: no payment instructions e-mail for order ${orderId}: ${decision.reason}`)
    return
  }
  await sendRefpayNotification(container, decision.notification)
}

export const config: SubscriberConfig = { event: "order.placed" }

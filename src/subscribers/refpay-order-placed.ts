import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { INotificationModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { paymentInstructionsNotification } from "../providers/refpay/payment-instructions"
import { loadOrderPaymentView } from "../workflows/refpay-view/load-payment-view"

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
    reportFailure(logger, event.data.id, error)
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
  const { data } = await query.graph({ entity: "order", fields: ["id", "display_id", "email"], filters: { id: orderId } })
  const decision = paymentInstructionsNotification(view, data[0] ?? { id: orderId })
  if (!decision.send) {
    logger.info(`REFPAY: no payment instructions e-mail for order ${orderId}: ${decision.reason}`)
    return
  }
  const notifications = container.resolve<INotificationModuleService>(Modules.NOTIFICATION)
  await notifications.createNotifications(decision.notification)
}

/** Medusa 2.21.2 throws this (and records the notification as failed) when no provider serves the channel. */
const NO_PROVIDER = /could not find a notification provider|not enabled|could not resolve 'notification'/i
let warnedNoProvider = false

function reportFailure(logger: Logger, orderId: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error)
  if (NO_PROVIDER.test(message)) {
    if (warnedNoProvider) return
    warnedNoProvider = true
    logger.warn(
      "REFPAY: payment instructions e-mails are not sent: no notification provider serves the \"email\" channel. " +
        "Register one (SendGrid, Resend, ...) in the notification module with a \"refpay-payment-instructions\" template. " +
        "Orders are not affected; this is logged once."
    )
    return
  }
  logger.warn(`REFPAY: payment instructions e-mail for order ${orderId} not sent: ${message}`)
}

export const config: SubscriberConfig = { event: "order.placed" }

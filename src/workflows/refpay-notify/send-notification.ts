import type {
  CreateNotificationDTO,
  INotificationModuleService,
  Logger,
  MedusaContainer,
} from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { isNoNotificationProvider } from "../../medusa-compat/notification-no-provider"

let warnedNoProvider = false

/**
 * Sends one customer e-mail through Medusa's Notification module. Best effort: a shop without an e-mail provider,
 * or a provider that fails, never affects the order or the payment. "Sent once" rests on the notification's
 * idempotency key, which Medusa records in its database (so it holds across servers); the callers send under the
 * payment session's lock.
 */
export async function sendRefpayNotification(
  container: MedusaContainer,
  notification: CreateNotificationDTO
): Promise<boolean> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  try {
    const notifications = container.resolve<INotificationModuleService>(Modules.NOTIFICATION)
    await notifications.createNotifications(notification)
    return true
  } catch (error) {
    reportFailure(logger, notification, error)
    return false
  }
}

function reportFailure(logger: Logger, notification: CreateNotificationDTO, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error)
  if (isNoNotificationProvider(error)) {
    if (warnedNoProvider) return
    warnedNoProvider = true
    logger.warn(
      'REFPAY: customer e-mails are not sent: no notification provider serves the "email" channel. Register one ' +
        "(SendGrid, Resend, ...) in the notification module with the refpay-* templates (see docs/payment-lifecycle.md). Orders are not " +
        "affected; this is logged once."
    )
    return
  }
  logger.warn(
    `REFPAY: e-mail ${notification.template} for ${notification.resource_type} ${notification.resource_id} not sent: ${message}`
  )
}

import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { refpaySessionIdsForOrder } from "../queries/refpay-session-state"
import { syncRefpayPayment } from "../sync/sync-payment"

/**
 * An order cancelled in Medusa must not keep a payable reference. Medusa does not call the provider for a
 * `pending_authorization` session, so each REFPAY session of the order goes through the same locked sync as a
 * webhook: it cancels the reference on the platform and records what the platform did (a cancellation, or a refund
 * when the customer's payment landed first). A failure is retried by the poll job.
 */
export default async function refpayOrderCanceled({ event, container }: SubscriberArgs<{ id: string }>) {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  for (const sessionId of await refpaySessionIdsForOrder(container, event.data.id)) {
    try {
      await syncRefpayPayment(container, { sessionId, reason: "order_canceled" })
    } catch (error) {
      logger.warn(
        `REFPAY: reference of cancelled order ${event.data.id} not cancelled yet (${(error as Error).message}); the poll job retries`
      )
    }
  }
}

export const config: SubscriberConfig = { event: "order.canceled" }

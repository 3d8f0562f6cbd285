import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { refpaySessionIdsForOrder } from "../queries/refpay-session-state"
import { syncRefpayPayment, type SyncReason } from "./sync-payment"

/**
 * Runs the locked sync for every REFPAY session of an order, when Medusa changed the order (cancelled or edited it).
 * A failure is logged, not thrown: the order's change stands, and the poll job checks the session again.
 */
export async function syncOrderReferences(
  container: MedusaContainer,
  orderId: string,
  reason: Extract<SyncReason, "order_canceled" | "order_changed">
): Promise<void> {
  for (const sessionId of await refpaySessionIdsForOrder(container, orderId)) {
    try {
      await syncRefpayPayment(container, { sessionId, reason })
    } catch (error) {
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .warn(
          `REFPAY: reference of order ${orderId} not brought in line after ${reason} yet (${(error as Error).message}); the poll job retries`
        )
    }
  }
}

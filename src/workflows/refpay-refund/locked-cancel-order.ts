import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLeasedLock, releaseLeasedLock } from "../locks/leased-lock"
import { refpaySessionLockKey } from "../refpay-sync/session-lock"

export interface LockedCancelOrderInput {
  order_id: string
  canceled_by?: string
  /** The order's REFPAY sessions that carry a reference. */
  session_ids: string[]
}

/**
 * Medusa's cancellation of an order with REFPAY payments (`POST /admin/orders/:id/cancel`), run under its
 * sessions' locks: the refunds and cancellations Medusa's cancelOrderWorkflow makes through the provider never
 * interleave with a webhook, a poll run or a refund of the same payment.
 */
export const refpayLockedCancelOrderWorkflow = createWorkflow(
  "refpay-locked-cancel-order",
  (input: LockedCancelOrderInput) => {
    const lock = acquireLeasedLock(
      transform({ input }, ({ input }) => ({ key: input.session_ids.map(refpaySessionLockKey) }))
    )
    cancelOrderWorkflow.runAsStep({
      input: transform({ input }, ({ input }) => ({ order_id: input.order_id, canceled_by: input.canceled_by })),
    })
    releaseLeasedLock(lock)
    return new WorkflowResponse(input.order_id)
  }
)

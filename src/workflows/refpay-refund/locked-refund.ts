import { refundPaymentWorkflow, type RefundPaymentWorkflowInput } from "@medusajs/medusa/core-flows"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLeasedLock, releaseLeasedLock } from "../locks/leased-lock"
import { refpaySessionLockKey } from "../refpay-sync/session-lock"
import { assertNoUnrecordedPlatformRefundStep } from "./unrecorded-platform-refund"

export interface LockedRefundInput {
  /** The REFPAY sessions behind the payment (their locks are held while it is refunded). */
  session_ids: string[]
  refund: RefundPaymentWorkflowInput
}

/**
 * Medusa's refund of a REFPAY payment of an open order (`POST /admin/payments/:id/refund`, the order page's
 * Refund), run under the sessions' locks: no webhook, poll run or second refund interleaves with it (two
 * overlapping refunds were once booked twice and paid once), and none is sent while the platform holds a refund
 * Medusa has not recorded. Medusa's own refundPaymentWorkflow does the refund, as a step of this one.
 */
export const refpayLockedRefundWorkflow = createWorkflow("refpay-locked-refund", (input: LockedRefundInput) => {
  const lock = acquireLeasedLock(
    transform({ input }, ({ input }) => ({ key: input.session_ids.map(refpaySessionLockKey) }))
  )
  assertNoUnrecordedPlatformRefundStep({ sessionIds: input.session_ids })
  const payment = refundPaymentWorkflow.runAsStep({ input: input.refund })
  releaseLeasedLock(lock)
  return new WorkflowResponse(payment)
})

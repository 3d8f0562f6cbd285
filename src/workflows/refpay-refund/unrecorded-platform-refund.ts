import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { toMedusaError } from "../../rules/platform-errors"
import { platformRefunds, unrecordedPlatformRefunds } from "../../rules/refunds"
import { loadRefpaySession } from "../../queries/refpay-session-state"
import { refpayProviderFor } from "../../providers/refpay/refpay-providers"

/**
 * Refuses a new refund while the platform holds a refund of this payment that Medusa has no record of: an earlier
 * refund whose answer was lost twice (Medusa deleted it, the platform had made it) or one made on the platform. A new
 * refund then would pay the customer twice for one intent; "Check status now" (or the poll job) records the platform's
 * refund first, and the shop owner refunds what is still due. Run under the session's lock.
 */
export async function assertNoUnrecordedPlatformRefund(container: MedusaContainer, sessionId: string): Promise<void> {
  const state = await loadRefpaySession(container, sessionId)
  if (!state?.payment) return
  const platform = await (
    await refpayProviderFor(container, state.providerId)
  ).client
    .getPayment(state.data.refpay!.payment_id)
    .catch((error) => {
      throw toMedusaError(error, "read the payment status before refunding", "admin")
    })
  const unrecorded = unrecordedPlatformRefunds(platformRefunds(platform.records), state.payment.refundKeys)
  if (unrecorded.length === 0) return
  const cents = unrecorded.reduce((total, refund) => total + refund.cents, 0)
  throw new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `The platform has refunded ${cents} cents of this REFPAY payment that Medusa has not recorded yet (a refund whose ` +
      `answer was lost, or one made on the platform). Use "Check status now" on the order's REFPAY panel to record it, ` +
      "then refund what is still due."
  )
}

/** `assertNoUnrecordedPlatformRefund` for each session, as a step of a refund workflow (under their locks). */
export const assertNoUnrecordedPlatformRefundStep = createStep(
  "refpay-assert-no-unrecorded-platform-refund",
  async (input: { sessionIds: string[] }, { container }) => {
    for (const sessionId of input.sessionIds) await assertNoUnrecordedPlatformRefund(container, sessionId)
    return new StepResponse(true)
  }
)

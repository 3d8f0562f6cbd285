import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { renewRefpayReferenceWorkflow } from "../../refpay-renew/renew-reference"
import { expiryOutcomeOf, type CancelOutcome } from "./close-reference"
import type { RefpayReading } from "./read-refpay-payment"

/**
 * Expiry policy `renew`: the order stays open and gets a new reference for the same amount (until the renewal
 * limit). Returns the new session's id, or null when the policy did not renew.
 */
export const renewRefpayReferenceStep = createStep(
  "refpay-renew-expired-reference",
  async (input: { reading: RefpayReading; cancelled: CancelOutcome }, { container }) => {
    const { reading } = input
    if (reading.kind !== "read" || reading.decision.kind !== "expire") return new StepResponse<string | null>(null)
    if ((await expiryOutcomeOf(container, reading, input.cancelled)) !== "renew")
      return new StepResponse<string | null>(null)
    const { state } = reading
    const { result } = await renewRefpayReferenceWorkflow(container).run({
      input: {
        previous_session_id: state.id,
        payment_collection_id: state.paymentCollectionId,
        provider_id: state.providerId,
        amount: state.amount,
        currency_code: state.currencyCode,
        customer: state.data.customer ?? null,
      },
    })
    return new StepResponse<string | null>(result)
  }
)

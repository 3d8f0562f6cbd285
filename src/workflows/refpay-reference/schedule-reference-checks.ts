import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { refreshReferenceCopies } from "../../medusa-compat/medusa-tables/reference-copies"
import { REFPAY_MODULE, type RefpayModuleService } from "../../modules/refpay"
import { refpayProviderFor } from "../../providers/refpay/refpay-providers"
import { intervalMs, validDate, checkWindowMs } from "../../rules/check-schedule"
import { loadRefpaySession } from "../../queries/refpay-session-state"

/**
 * Starts checking references as soon as they are issued (the poll job would at its next run): their check records
 * the plugin's own copy of the reference and its order, so a payment of one whose session Medusa deletes is never
 * lost, even in the minutes before the poll job first looks at it. A reference already checked is left as it is.
 */
export async function scheduleReferenceChecks(container: MedusaContainer, sessionIds: string[]): Promise<void> {
  const now = Date.now()
  const rows = []
  for (const sessionId of sessionIds) {
    const state = await loadRefpaySession(container, sessionId)
    if (!state?.data.refpay) continue
    const { settings } = await refpayProviderFor(container, state.providerId)
    rows.push({
      session_id: state.id,
      provider_id: state.providerId,
      next_check_at: new Date(now + intervalMs(settings)),
      check_until: new Date(now + checkWindowMs(settings)),
      expires_at: validDate(new Date(state.data.refpay.expires_at ?? NaN)),
    })
  }
  const checked = await container.resolve<RefpayModuleService>(REFPAY_MODULE).addPaymentChecks(rows)
  await refreshReferenceCopies(container, checked)
}

/** `scheduleReferenceChecks` as the last step of issuing a reference. */
export const scheduleReferenceChecksStep = createStep(
  "refpay-schedule-reference-checks",
  async (sessionId: string, { container }) => {
    await scheduleReferenceChecks(container, [sessionId])
    return new StepResponse(sessionId)
  }
)

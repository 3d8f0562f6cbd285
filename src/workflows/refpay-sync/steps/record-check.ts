import { refreshReferenceCopies } from "../../../medusa-compat/medusa-tables/reference-copies"
import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { REFPAY_MODULE, type RefpayModuleService } from "../../../modules/refpay"
import { nextCheckAt, validDate, checkUntil, type ScheduleSettings } from "../../../rules/check-schedule"
import { PAYMENT_REMINDER_TEMPLATE } from "../../../rules/customer-emails"
import { refpayProviderFor } from "../../../providers/refpay/refpay-providers"
import type { SyncSnapshot } from "./read-refpay-payment"

export const AMOUNT_MISMATCH_EVENT = "refpay.payment.amount_mismatch"

/** The reference's validity as the snapshot knows it: the platform's when it said, else the one issued. */
export function expiresAtOf(snapshot: Exclude<SyncSnapshot, { kind: "not_found" }>): Date {
  return new Date((snapshot.kind === "read" && snapshot.platform.expiresAt) || snapshot.state.data.refpay!.expires_at)
}

/** Until when the poll job keeps looking at the session after this snapshot (see checkUntil). */
export function checkUntilOf(snapshot: Exclude<SyncSnapshot, { kind: "not_found" }>, settings: ScheduleSettings) {
  const outcome = snapshot.kind === "failed" ? snapshot.failure : snapshot.decision.kind
  return checkUntil(outcome, !!snapshot.state.payment?.capturedAt, expiresAtOf(snapshot), settings)
}

/**
 * Records every check, successful or not, in the plugin's own table (never through the payment provider): the
 * outcome, when the session is next due (a failure backs off), and until when it is checked. An amount mismatch is
 * announced once per reported amount, not on every check.
 */
export const recordRefpayCheckStep = createStep(
  "refpay-record-check",
  async (
    input: {
      sessionId: string
      snapshot: SyncSnapshot
      now: string
      /** The e-mail template sent. */ notified: string | null
    },
    { container }
  ) => {
    const { snapshot } = input
    const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
    if (snapshot.kind === "not_found") {
      // A reference the plugin kept a record of is still checked from that record (deleted-session.ts).
      if (!(await checks.keptReference(input.sessionId))) await checks.stopWatching(input.sessionId)
      return new StepResponse(null)
    }
    const now = new Date(input.now)
    const settings = (await refpayProviderFor(container, snapshot.state.providerId)).settings
    // Read once: its failures set the backoff, and the record is written onto it without reading it again.
    const previous = (await checks.getPaymentCheck(snapshot.state.id)) ?? null
    const failed = snapshot.kind === "failed"
    const outcome = failed ? snapshot.failure : snapshot.decision.kind
    await checks.recordPaymentCheck(
      {
        session_id: snapshot.state.id,
        provider_id: snapshot.state.providerId,
        checked_at: now,
        outcome,
        error: failed ? snapshot.message : null,
        failed,
        next_check_at: nextCheckAt(now, settings, previous?.failures ?? 0, failed),
        check_until: checkUntilOf(snapshot, settings),
        expires_at: validDate(expiresAtOf(snapshot)),
        reminded: input.notified === PAYMENT_REMINDER_TEMPLATE,
      },
      previous
    )
    await refreshReferenceCopies(container, [snapshot.state.id])
    if (!failed && snapshot.decision.kind === "amount_mismatch") {
      const alert = `amount_mismatch:${snapshot.platform.amountCents ?? "none"}`
      if (await checks.claimAlert(snapshot.state.id, alert)) {
        const data = {
          payment_session_id: snapshot.state.id,
          order_id: snapshot.state.order?.id ?? null,
          expected_cents: snapshot.state.data.amount_cents,
          platform_cents: snapshot.platform.amountCents ?? null,
        }
        container
          .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
          .error(
            `REFPAY: payment for session ${data.payment_session_id} reports ${data.platform_cents} cents but the order is for ${data.expected_cents}; not captured, check it on the platform`
          )
        await container.resolve<IEventBusModuleService>(Modules.EVENT_BUS).emit({ name: AMOUNT_MISMATCH_EVENT, data })
      }
    }
    return new StepResponse(outcome)
  }
)

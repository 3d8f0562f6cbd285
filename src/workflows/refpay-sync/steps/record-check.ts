import { refreshReferenceCopies } from "../../../medusa-compat/medusa-tables/reference-copies"
import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { REFPAY_MODULE, type RefpayModuleService } from "../../../modules/refpay"
import { nextCheckAt, validDate, checkUntil, type ScheduleSettings } from "../../../rules/check-schedule"
import { PAYMENT_REMINDER_TEMPLATE } from "../../../rules/customer-emails"
import { refpayProviderFor } from "../../../providers/refpay/refpay-providers"
import type { RefpayReading } from "./read-refpay-payment"

export const AMOUNT_MISMATCH_EVENT = "refpay.payment.amount_mismatch"

/** The reference's validity as the reading knows it: the platform's when it said, else the one issued. */
export function expiresAtOf(reading: Exclude<RefpayReading, { kind: "not_found" }>): Date {
  return new Date((reading.kind === "read" && reading.platform.expiresAt) || reading.state.data.refpay!.expires_at)
}

/** Until when the poll job keeps looking at the session after this reading (see checkUntil). */
export function checkUntilOf(reading: Exclude<RefpayReading, { kind: "not_found" }>, settings: ScheduleSettings) {
  const outcome = reading.kind === "failed" ? reading.failure : reading.decision.kind
  return checkUntil(outcome, !!reading.state.payment?.capturedAt, expiresAtOf(reading), settings)
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
      reading: RefpayReading
      now: string
      /** The e-mail template sent. */ notified: string | null
    },
    { container }
  ) => {
    const { reading } = input
    const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
    if (reading.kind === "not_found") {
      // A reference the plugin kept a record of is still checked from that record (deleted-session.ts).
      if (!(await checks.keptReference(input.sessionId))) await checks.stopWatching(input.sessionId)
      return new StepResponse(null)
    }
    const now = new Date(input.now)
    const settings = (await refpayProviderFor(container, reading.state.providerId)).settings
    // Read once: its failures set the backoff, and the record is written onto it without reading it again.
    const previous = (await checks.getPaymentCheck(reading.state.id)) ?? null
    const failed = reading.kind === "failed"
    const outcome = failed ? reading.failure : reading.decision.kind
    await checks.recordPaymentCheck(
      {
        session_id: reading.state.id,
        provider_id: reading.state.providerId,
        checked_at: now,
        outcome,
        error: failed ? reading.message : null,
        failed,
        next_check_at: nextCheckAt(now, settings, previous?.failures ?? 0, failed),
        check_until: checkUntilOf(reading, settings),
        expires_at: validDate(expiresAtOf(reading)),
        reminded: input.notified === PAYMENT_REMINDER_TEMPLATE,
      },
      previous
    )
    await refreshReferenceCopies(container, [reading.state.id])
    if (!failed && reading.decision.kind === "amount_mismatch") {
      const alert = `amount_mismatch:${reading.platform.amountCents ?? "none"}`
      if (await checks.claimAlert(reading.state.id, alert)) {
        const data = {
          payment_session_id: reading.state.id,
          order_id: reading.state.order?.id ?? null,
          expected_cents: reading.state.data.amount_cents,
          platform_cents: reading.platform.amountCents ?? null,
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

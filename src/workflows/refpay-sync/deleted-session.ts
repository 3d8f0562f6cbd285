import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import {
  createStep,
  createWorkflow,
  StepResponse,
  transform,
  when,
  WorkflowResponse,
} from "@medusajs/framework/workflows-sdk"
import { REFPAY_MODULE, type RefpayModuleService } from "../../modules/refpay"
import { refpayProviderFor } from "../../providers/refpay/refpay-providers"
import { nextCheckAt, validDate, checkUntil } from "../../rules/check-schedule"
import { planDeletedSession, type DeletedSessionPlan } from "../../rules/deleted-session"
import { refundKeyFor } from "../../rules/identifiers"
import { acquireLeasedLock, releaseLeasedLock } from "../locks/leased-lock"
import { PAID_AFTER_CANCELLATION_EVENT } from "./steps/record-payment"
import { refpaySessionLockKey } from "./session-lock"

export interface DeletedSessionInput {
  sessionId: string
  /** ISO time the check is recorded at. */
  now: string
  /** A sync (the shop's automatic refund setting decides) or the shop owner's "Refund" from the REFPAY page. */
  refund: "as_configured" | "owner"
}

export interface DeletedSessionOutput {
  /** Nothing kept for that session: it was never a REFPAY reference the plugin recorded. */
  found: boolean
  platformStatus: string | null
  plan: DeletedSessionPlan | null
  refundedCents: number
  orderId: string | null
}

interface KeptSnapshot {
  sessionId: string
  providerId: string
  orderId: string | null
  paymentId: string
  expiresAt: string | null
  platform: { status: string; paidCents: number; refundedCents: number }
  flagged: boolean
  autoRefund: boolean
}

/** The plugin's record of the reference, and what the platform says of its payment now. */
const readKeptReferenceStep = createStep(
  "refpay-read-kept-reference",
  async (input: DeletedSessionInput, { container }) => {
    const kept = await container.resolve<RefpayModuleService>(REFPAY_MODULE).keptReference(input.sessionId)
    const paymentId = String(kept?.reference?.payment_id ?? "")
    if (!kept || !paymentId) return new StepResponse<KeptSnapshot | null>(null)
    const provider = await refpayProviderFor(container, kept.provider_id)
    const status = await provider.client.getPayment(paymentId)
    return new StepResponse<KeptSnapshot | null>({
      sessionId: input.sessionId,
      providerId: kept.provider_id,
      orderId: kept.order_id,
      paymentId,
      expiresAt: typeof kept.reference?.expires_at === "string" ? kept.reference.expires_at : null,
      platform: {
        status: status.status,
        paidCents: status.amountCents ?? 0,
        refundedCents: status.refundedAmountCents ?? 0,
      },
      flagged: !!kept.late_at,
      autoRefund: provider.settings.autoRefundLatePayments,
    })
  }
)

/**
 * Sends back through the platform what it still holds of the payment, under a key derived from the reference's
 * session and what was refunded before: a retry after a lost answer is the same refund, never a second one.
 */
const refundKeptReferenceStep = createStep(
  "refpay-refund-kept-reference",
  async (input: { snapshot: KeptSnapshot; cents: number }, { container }) => {
    const { snapshot, cents } = input
    const provider = await refpayProviderFor(container, snapshot.providerId)
    const result = await provider.client.cancelOrRefund({
      paymentId: snapshot.paymentId,
      amountCents: cents,
      idempotencyKey: refundKeyFor(
        snapshot.paymentId,
        `deleted-session:${snapshot.sessionId}:${snapshot.platform.refundedCents}`
      ),
    })
    return new StepResponse(result.refundedAmountCents ?? snapshot.platform.refundedCents + cents)
  }
)

/** What was found and done, on the reference's check; the late payment announced once, as a session's would be. */
const recordKeptReferenceStep = createStep(
  "refpay-record-kept-reference",
  async (
    input: { snapshot: KeptSnapshot; plan: DeletedSessionPlan; refundedCents: number | undefined; now: string },
    { container }
  ) => {
    const { snapshot, plan, now } = input
    const checks = container.resolve<RefpayModuleService>(REFPAY_MODULE)
    const check = (await checks.keptReference(snapshot.sessionId))!
    const settings = (await refpayProviderFor(container, snapshot.providerId)).settings
    const at = new Date(now)
    const refunded = input.refundedCents ?? snapshot.platform.refundedCents
    const settled = plan.outcome === "refunded_after_session_deleted"
    const expiresAt = validDate(new Date(snapshot.expiresAt ?? NaN)) ?? at
    await checks.updateRefpayPaymentChecks({
      id: check.id,
      last_checked_at: at,
      last_outcome: plan.outcome === "record_check" && check.late_at ? check.last_outcome : plan.outcome,
      last_error: null,
      failures: 0,
      next_check_at: nextCheckAt(at, settings, 0, false),
      check_until: settled ? null : (check.check_until ?? checkUntil("record_check", false, expiresAt, settings)),
      platform_amount_cents: snapshot.platform.paidCents,
      platform_refunded_cents: refunded,
      ...(plan.flag ? { late_at: at } : {}),
    })
    if (plan.flag) {
      const held = Math.max(0, snapshot.platform.paidCents - snapshot.platform.refundedCents)
      await container.resolve<IEventBusModuleService>(Modules.EVENT_BUS).emit({
        name: PAID_AFTER_CANCELLATION_EVENT,
        data: {
          order_id: snapshot.orderId,
          payment_session_id: snapshot.sessionId,
          payment_id: null,
          refpay_payment_id: snapshot.paymentId,
          amount_cents: held,
          paid_after_cancellation_at: at.toISOString(),
          session_deleted: true,
        },
      })
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .warn(
          `REFPAY: reference ${snapshot.paymentId} of order ${snapshot.orderId} was paid after Medusa deleted its payment session (${held} cents held); ${input.refundedCents === undefined ? "refund it from the REFPAY page" : "refunded"}`
        )
    }
    return new StepResponse(refunded)
  }
)

export const refpayDeletedSessionWorkflowId = "refpay-deleted-session-reference"

/**
 * A reference whose session Medusa deleted: read the platform, then flag a late payment once and refund it (as the
 * shop configured, or at the owner's request), all on the plugin's own record. Under the session's lock, like every
 * other path that acts on the reference.
 */
export const refpayDeletedSessionWorkflow = createWorkflow(
  refpayDeletedSessionWorkflowId,
  (input: DeletedSessionInput) => {
    const lock = acquireLeasedLock(
      transform({ input }, ({ input }) => ({ key: refpaySessionLockKey(input.sessionId) }))
    )
    const snapshot = readKeptReferenceStep(input)
    const plan = transform({ snapshot, input }, ({ snapshot, input }): DeletedSessionPlan | null => {
      if (!snapshot) return null
      const plan = planDeletedSession({
        platformStatus: snapshot.platform.status,
        paidCents: snapshot.platform.paidCents,
        refundedCents: snapshot.platform.refundedCents,
        flagged: snapshot.flagged,
        refund: input.refund === "owner" ? "owner" : snapshot.autoRefund ? "auto" : "off",
      })
      if (input.refund === "owner" && plan.refundCents === 0)
        throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Nothing is left to refund on this payment.")
      return plan
    })
    const refunded = when(
      "refpay-when-kept-reference-refund",
      { plan },
      ({ plan }) => (plan?.refundCents ?? 0) > 0
    ).then(() =>
      refundKeptReferenceStep(
        transform({ snapshot, plan }, ({ snapshot, plan }) => ({ snapshot: snapshot!, cents: plan!.refundCents }))
      )
    )
    when("refpay-when-kept-reference", { snapshot }, ({ snapshot }) => !!snapshot).then(() =>
      recordKeptReferenceStep(
        transform({ snapshot, plan, refunded, input }, ({ snapshot, plan, refunded, input }) => ({
          snapshot: snapshot!,
          plan: plan!,
          refundedCents: refunded ?? undefined,
          now: input.now,
        }))
      )
    )
    releaseLeasedLock(lock)
    return new WorkflowResponse(
      transform({ snapshot, plan, refunded }, ({ snapshot, plan, refunded }): DeletedSessionOutput => ({
        found: !!snapshot,
        platformStatus: snapshot?.platform.status ?? null,
        plan,
        // The platform's refunded total after the refund, less what it had refunded before.
        refundedCents: refunded ? refunded - (snapshot?.platform.refundedCents ?? 0) : 0,
        orderId: snapshot?.orderId ?? null,
      }))
    )
  }
)

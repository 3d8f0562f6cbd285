import type { ProcessPaymentWorkflowInput, RefundPaymentWorkflowInput } from "@medusajs/medusa/core-flows"
import type { IEventBusModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { fromCents } from "../../../rules/money"
import { platformRefunds, unrecordedPlatformRefunds } from "../../../rules/refunds"
import {
  beginPlatformRefundRecording,
  endPlatformRefundRecording,
} from "../../../medusa-compat/refund-recording-context"
import { loadRefpaySession, type RefpaySessionState } from "../../../queries/refpay-session-state"
import { refpayProviderFor } from "../../../providers/refpay/refpay-providers"
import type { RefundLatePaymentInput } from "../../../medusa-compat/refund-without-credit-line"
import { snapshotOf } from "../branches"
import { writeSession } from "./session-write"
import type { SyncSnapshot } from "./read-refpay-payment"

export const PAID_AFTER_CANCELLATION_EVENT = "refpay.payment.paid_after_cancellation"
const LATE_REFUND_NOTE = "REFPAY: paid after the order was cancelled"

/**
 * What Medusa's processPaymentWorkflow is given to record a paid snapshot, the way Medusa records any
 * webhook-confirmed payment: it authorises the session again (the provider reads the platform, checks the amount
 * and reports `captured`) and records the capture; a capture of a captured payment is a no-op. The sync runs it as
 * a step of its own (`runAsStep`, never compensated: see sync-workflow.ts).
 */
export function captureOf(snapshot: SyncSnapshot): ProcessPaymentWorkflowInput {
  const { state } = snapshotOf(snapshot)
  return { action: "captured", data: { session_id: state.id, amount: fromCents(state.data.amount_cents) } }
}

/** The platform's refunds Medusa is about to record, and the Medusa refund that records them. */
export interface PlatformRefundsToRecord {
  paymentId: string
  refund: MedusaRefund
}

/**
 * Records as one Medusa refund the refunds the platform made that Medusa has none for (a cancellation that met the
 * customer's payment, a refund made on the platform): this step finds them, matched by key, never by totals (so a
 * refund of Medusa's still on its way is never recorded twice; every refund runs under this session's lock anyway),
 * and begins their recording (medusa-compat/refund-recording-context.ts); Medusa's refund workflow for the order
 * then runs as the next step of the sync (`recordsPlatformRefunds`), and the provider, finding the recording, sends
 * nothing and records their keys; `endPlatformRefundRecordingStep` ends it. One Medusa refund for all of them: a
 * workflow's graph cannot repeat a step per refund found, and the totals agree at once. A difference the keys cannot
 * explain stays on the REFPAY page's attention list.
 */
export const beginPlatformRefundRecordingStep = createStep(
  "refpay-begin-platform-refund-recording",
  async (input: { snapshot: SyncSnapshot }, { container }) => {
    const snapshot = snapshotOf(input.snapshot)
    // The platform lists no refund (every capture): nothing to record, whatever Medusa holds, so Medusa's side is not
    // read again. Otherwise it is read afresh: the capture and the removal of refunds cut short ran since the snapshot.
    const made = platformRefunds(snapshot.platform.records)
    if (made.length === 0) return new StepResponse<PlatformRefundsToRecord | null, string | null>(null, null)
    const fresh = await loadRefpaySession(container, snapshot.state.id)
    if (!fresh?.payment?.capturedAt) return new StepResponse<PlatformRefundsToRecord | null, string | null>(null, null)
    const refunds = unrecordedPlatformRefunds(made, fresh.payment.refundKeys)
    const cents = refunds.reduce((total, refund) => total + refund.cents, 0)
    const refund = cents > 0 ? medusaRefundOf(fresh, cents, "REFPAY: refunded on the platform") : null
    if (!refund) return new StepResponse<PlatformRefundsToRecord | null, string | null>(null, null)
    const paymentId = fresh.data.refpay!.payment_id
    beginPlatformRefundRecording({ paymentId, refunds })
    return new StepResponse<PlatformRefundsToRecord | null, string | null>({ paymentId, refund }, paymentId)
  },
  async (paymentId) => {
    if (paymentId) endPlatformRefundRecording(paymentId)
  }
)

export const endPlatformRefundRecordingStep = createStep(
  "refpay-end-platform-refund-recording",
  async (input: { paymentId: string }) => {
    endPlatformRefundRecording(input.paymentId)
    return new StepResponse(input.paymentId)
  }
)

/** The Medusa refund that records the platform's refunds, if it is for an order of this kind. */
export function recordsPlatformRefunds<K extends keyof RefundInputs>(
  toRecord: PlatformRefundsToRecord | null | undefined,
  order: K
): RefundInputs[K] | null {
  return toRecord?.refund.order === order ? (toRecord.refund.input as RefundInputs[K]) : null
}

/**
 * A Medusa refund of a REFPAY payment, through the workflow its order allows: a cancelled order's through
 * refundRefpayLatePaymentWorkflow (Medusa's own fails on a cancelled order), an open order's (a cancelled reference
 * paid) through Medusa's refundPaymentWorkflow.
 */
interface RefundInputs {
  canceled: RefundLatePaymentInput
  open: RefundPaymentWorkflowInput
}
export type MedusaRefund = { [K in keyof RefundInputs]: { order: K; input: RefundInputs[K] } }[keyof RefundInputs]

function medusaRefundOf(fresh: RefpaySessionState, cents: number, note: string): MedusaRefund | null {
  if (!fresh.payment) return null
  const refund = { payment_id: fresh.payment.id, amount: fromCents(cents), note }
  return fresh.order?.status === "canceled"
    ? { order: "canceled", input: { ...refund, order_id: fresh.order.id, currency_code: fresh.currencyCode } }
    : { order: "open", input: refund }
}

/** A late payment found by the sync: when it was found, and the automatic refund to make, if any. */
export interface LatePayment {
  at: string
  refund: MedusaRefund | null
}

/**
 * A payment the platform holds for a cancelled order (or a cancelled reference), not yet flagged: announced with
 * `refpay.payment.paid_after_cancellation`, and, when the shop asked for automatic refunds, the refund to make is
 * returned for the workflow's refund branches (`lateRefundFor`). The flag is written after the refund
 * (flagRefpayLatePaymentStep), so a sync that dies or fails in between finds the payment again and refunds it; the
 * announcement may then be made twice, never not at all.
 */
export const findRefpayLatePaymentStep = createStep(
  "refpay-find-late-payment",
  async (input: { snapshot: SyncSnapshot }, { container }) => {
    const snapshot = snapshotOf(input.snapshot)
    const fresh = await loadRefpaySession(container, snapshot.state.id)
    if (!fresh || fresh.data.paid_after_cancellation_at) return new StepResponse<LatePayment | null>(null)
    const at = new Date().toISOString()
    const heldCents = fresh.data.amount_cents - (snapshot.platform.refundedAmountCents ?? 0)
    await announce(container, fresh, heldCents, at)
    return new StepResponse<LatePayment | null>({ at, refund: await automaticRefundOf(container, fresh, heldCents) })
  }
)

/** The late payment flagged on its session, once (the REFPAY page lists it until it is refunded). */
export const flagRefpayLatePaymentStep = createStep(
  "refpay-flag-late-payment",
  async (input: { sessionId: string; late: LatePayment }, { container }) => {
    const fresh = await loadRefpaySession(container, input.sessionId)
    if (!fresh || fresh.data.paid_after_cancellation_at) return new StepResponse(null, null)
    await writeSession(container, {
      id: fresh.id,
      data: { ...fresh.data, paid_after_cancellation_at: input.late.at },
      status: fresh.status,
    })
    return new StepResponse(input.late.at, { id: fresh.id, data: fresh.data, status: fresh.status })
  },
  async (previous, { container }) => {
    if (previous) await writeSession(container, previous)
  }
)

/** The automatic refund of a late payment found, if it is for an order of this kind. */
export function lateRefundFor<K extends keyof RefundInputs>(
  late: LatePayment | null | undefined,
  order: K
): RefundInputs[K] | null {
  const refund = late?.refund
  return refund?.order === order ? (refund.input as RefundInputs[K]) : null
}

async function announce(
  container: MedusaContainer,
  fresh: NonNullable<Awaited<ReturnType<typeof loadRefpaySession>>>,
  heldCents: number,
  at: string
) {
  const payload = {
    order_id: fresh.order?.id ?? null,
    payment_session_id: fresh.id,
    payment_id: fresh.payment?.id ?? null,
    refpay_payment_id: fresh.data.refpay!.payment_id,
    amount_cents: heldCents,
    paid_after_cancellation_at: at,
  }
  await container
    .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
    .emit({ name: PAID_AFTER_CANCELLATION_EVENT, data: payload })
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .warn(`REFPAY: order ${payload.order_id} was paid after it was cancelled (${heldCents} cents held); refund it`)
}

async function automaticRefundOf(
  container: MedusaContainer,
  fresh: RefpaySessionState,
  heldCents: number
): Promise<MedusaRefund | null> {
  const { autoRefundLatePayments } = (await refpayProviderFor(container, fresh.providerId)).settings
  if (!autoRefundLatePayments || heldCents <= 0) return null
  return medusaRefundOf(fresh, heldCents, LATE_REFUND_NOTE)
}

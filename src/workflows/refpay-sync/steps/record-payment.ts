import {
  refundPaymentWorkflow,
  type ProcessPaymentWorkflowInput,
  type RefundPaymentWorkflowInput,
} from "@medusajs/medusa/core-flows"
import type { IEventBusModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { fromCents } from "../../../rules/money"
import { platformRefunds, unrecordedPlatformRefunds } from "../../../rules/refunds"
import { whileRecordingPlatformRefund } from "../../../medusa-compat/refund-recording-context"
import { loadRefpaySession, type RefpaySessionState } from "../../../queries/refpay-session-state"
import { refpayProviderFor } from "../../../providers/refpay/lookup"
import {
  refundRefpayLatePaymentWorkflow,
  type RefundLatePaymentInput,
} from "../../../medusa-compat/refund-without-credit-line"
import { readingOf } from "../branches"
import { writeSession } from "./session-write"
import type { RefpayReading } from "./read-refpay-payment"

export const PAID_AFTER_CANCELLATION_EVENT = "refpay.payment.paid_after_cancellation"
const LATE_REFUND_NOTE = "REFPAY: paid after the order was cancelled"

/**
 * What Medusa's processPaymentWorkflow is given to record a paid reading, the way Medusa records any
 * webhook-confirmed payment: it authorises the session again (the provider reads the platform, checks the amount
 * and reports `captured`) and records the capture; a capture of a captured payment is a no-op. The sync runs it as
 * a step of its own (`runAsStep`, never compensated: see sync-workflow.ts).
 */
export function captureOf(reading: RefpayReading): ProcessPaymentWorkflowInput {
  const { state } = readingOf(reading)
  return { action: "captured", data: { session_id: state.id, amount: fromCents(state.data.amount_cents) } }
}

/**
 * Records as Medusa refunds the refunds the platform made that Medusa has none for (a cancellation that met the
 * customer's payment): each platform refund whose key matches no Medusa refund of the payment is recorded through
 * Medusa's refund, and the provider, told it is recording that platform refund, sends nothing. Matched by key,
 * never by totals, so a refund of Medusa's still on its way is never recorded twice (and every refund runs under
 * this session's lock anyway). A difference the keys cannot explain stays on the REFPAY page's attention list.
 * Medusa 2.21.2 offers no public way to tell a provider's refundPayment "record, do not refund" (it passes only the
 * amount and Medusa's refund id), so that intent travels with the call (platform-refund-recording.ts) and Medusa's
 * refund workflows run inside this step, one per platform refund, where the intent reaches them; `runAsStep` would run
 * them outside the call, and a workflow's graph cannot repeat one for each refund found.
 */
export const recordRefpayRefundStep = createStep(
  "refpay-record-platform-refund",
  async (input: { reading: RefpayReading }, { container }) => {
    const reading = readingOf(input.reading)
    const fresh = await loadRefpaySession(container, reading.state.id)
    if (!fresh?.payment?.capturedAt) return new StepResponse(0)
    const paymentId = fresh.data.refpay!.payment_id
    let recorded = 0
    for (const refund of unrecordedPlatformRefunds(
      platformRefunds(reading.platform.records),
      fresh.payment.refundKeys
    )) {
      await whileRecordingPlatformRefund({ paymentId, ...refund }, () =>
        recordRefund(container, fresh, refund.cents, "REFPAY: refunded on the platform")
      )
      recorded += refund.cents
    }
    return new StepResponse(recorded)
  }
)

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
  async (input: { reading: RefpayReading }, { container }) => {
    const reading = readingOf(input.reading)
    const fresh = await loadRefpaySession(container, reading.state.id)
    if (!fresh || fresh.data.paid_after_cancellation_at) return new StepResponse<LatePayment | null>(null)
    const at = new Date().toISOString()
    const heldCents = fresh.data.amount_cents - (reading.platform.refundedAmountCents ?? 0)
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

/** A platform refund recorded through the Medusa refund its order allows (medusaRefundOf). */
async function recordRefund(container: MedusaContainer, fresh: RefpaySessionState, cents: number, note: string) {
  const refund = medusaRefundOf(fresh, cents, note)
  if (refund?.order === "canceled") await refundRefpayLatePaymentWorkflow(container).run({ input: refund.input })
  else if (refund) await refundPaymentWorkflow(container).run({ input: refund.input })
}

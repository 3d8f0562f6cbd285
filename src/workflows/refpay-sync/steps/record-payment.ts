import { processPaymentWorkflow, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import type { IEventBusModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { fromCents } from "../../../rules/money"
import { platformRefunds, unrecordedPlatformRefunds } from "../../../rules/refunds"
import { whileRecordingPlatformRefund } from "../../../providers/refpay/platform-refund-recording"
import { loadRefpaySession, type RefpaySessionState } from "../../../queries/refpay-session-state"
import { refpayProviderFor } from "../../../providers/refpay/lookup"
import { refundRefpayLatePaymentWorkflow } from "../../refpay-refund/refund-on-cancelled-order"
import { readingOf } from "../branches"
import { writeSession } from "./session-write"
import type { RefpayReading } from "./read-refpay-payment"

export const PAID_AFTER_CANCELLATION_EVENT = "refpay.payment.paid_after_cancellation"

/**
 * Records the payment the way Medusa records any webhook-confirmed payment: processPaymentWorkflow authorises the
 * session again (the provider reads the platform, checks the amount and reports `captured`) and records the
 * capture. It locks the cart, and a capture of a captured payment is a no-op. A capture is money received: it is
 * never undone by a later step's failure, so Medusa's workflow runs on its own here, not as `runAsStep`: as a
 * sub-workflow, a failure after it would compensate it (its authorisation step's compensation cancels the payment,
 * and its order transaction would be deleted), and its cart lock would be skipped. A sync run again after a crash
 * finds the payment captured and completes the bookkeeping (capturing twice is a no-op).
 */
export const captureRefpayPaymentStep = createStep(
  "refpay-capture-payment",
  async (input: { reading: RefpayReading }, { container }) => {
    const reading = readingOf(input.reading)
    await processPaymentWorkflow(container).run({
      input: {
        action: "captured",
        data: { session_id: reading.state.id, amount: fromCents(reading.state.data.amount_cents) },
      },
    })
    return new StepResponse(true)
  }
)

/**
 * Records as Medusa refunds the refunds the platform made that Medusa has none for (a cancellation that met the
 * customer's payment): each platform refund whose key matches no Medusa refund of the payment is recorded through
 * Medusa's refund, and the provider, told it is recording that platform refund, sends nothing. Matched by key,
 * never by totals, so a refund of Medusa's still on its way is never recorded twice (and every refund runs under
 * this session's lock anyway). A difference the keys cannot explain stays on the REFPAY page's attention list.
 * Medusa's refund runs inside this step, not as `runAsStep`: the intent "record, do not refund" travels with the call
 * (platform-refund-recording.ts), and a refund made is never compensated by a later step's failure.
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
 * A payment the platform holds for a cancelled order: flagged on the session once, announced with
 * `refpay.payment.paid_after_cancellation`, and refunded when the shop asked for automatic refunds (in the step,
 * for the same reason as the recorded refunds above: money sent back is never compensated).
 */
export const flagRefpayLatePaymentStep = createStep(
  "refpay-flag-late-payment",
  async (input: { reading: RefpayReading }, { container }) => {
    const reading = readingOf(input.reading)
    const fresh = await loadRefpaySession(container, reading.state.id)
    if (!fresh || fresh.data.paid_after_cancellation_at) return new StepResponse(null, null)
    const at = new Date().toISOString()
    await writeSession(container, {
      id: fresh.id,
      data: { ...fresh.data, paid_after_cancellation_at: at },
      status: fresh.status,
    })
    const heldCents = fresh.data.amount_cents - (reading.platform.refundedAmountCents ?? 0)
    await announce(container, fresh, heldCents, at)
    await maybeRefund(container, fresh, heldCents)
    return new StepResponse(at, { id: fresh.id, data: fresh.data, status: fresh.status })
  },
  async (previous, { container }) => {
    if (previous) await writeSession(container, previous)
  }
)

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

async function maybeRefund(container: MedusaContainer, fresh: RefpaySessionState, heldCents: number) {
  const { autoRefundLatePayments } = (await refpayProviderFor(container, fresh.providerId)).settings
  if (!autoRefundLatePayments || heldCents <= 0) return
  await recordRefund(container, fresh, heldCents, "REFPAY: paid after the order was cancelled")
}

/**
 * A refund through Medusa's refund steps. On a cancelled order, Medusa's refundPaymentWorkflow refunds and then
 * fails on its last step (an order credit line, refused on a cancelled order), so that case uses the same steps
 * without it; an open order gets Medusa's own workflow.
 */
async function recordRefund(container: MedusaContainer, fresh: RefpaySessionState, cents: number, note: string) {
  if (!fresh.payment) return
  if (fresh.order?.status === "canceled") {
    await refundRefpayLatePaymentWorkflow(container).run({
      input: {
        payment_id: fresh.payment.id,
        order_id: fresh.order.id,
        currency_code: fresh.currencyCode,
        amount: fromCents(cents),
        note,
      },
    })
    return
  }
  await refundPaymentWorkflow(container).run({
    input: { payment_id: fresh.payment.id, amount: fromCents(cents), note },
  })
}

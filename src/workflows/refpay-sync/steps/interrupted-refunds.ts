import type {
  IEventBusModuleService,
  IOrderModuleService,
  IPaymentModuleService,
  Logger,
  MedusaContainer,
} from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { interruptedRefunds, platformRefunds, type MedusaRefundRecord } from "../../../rules/refunds"
import type { RefpaySessionState } from "../../../queries/refpay-session-state"
import { snapshotOf } from "../branches"
import type { SyncSnapshot } from "./read-refpay-payment"

export const REFUND_INTERRUPTED_EVENT = "refpay.refund.interrupted"

/**
 * Removes from Medusa the refunds of this payment that were cut short before the platform made them
 * (interruptedRefunds: a process that died during Medusa's refund call; never one whose call the platform answered
 * with success, whatever later status reads list), as Medusa removes a refund whose call failed, with the order
 * transaction a later refund of the payment may have booked for it; announces each
 * (`refpay.refund.interrupted` and a warning), so the shop refunds again. It runs before the sync records the
 * platform's own refunds, so a recording cut short is recorded again once. Nothing to compensate: what is removed
 * was never made. Announced at once, not through the workflow's event group (emitEventStep): a later step's failure
 * does not bring the refund back, so no later sync would announce it.
 */
export const removeRefpayInterruptedRefundsStep = createStep(
  "refpay-remove-interrupted-refunds",
  async (input: { snapshot: SyncSnapshot; now: string }, { container }) => {
    // The pass's own snapshot of Medusa's side will do: no step before this one makes or records a refund.
    const { state, platform } = snapshotOf(input.snapshot)
    if (!state.payment?.refunds.length) return new StepResponse<string[]>([])
    const cut = interruptedRefunds(
      {
        refpayPaymentId: state.data.refpay!.payment_id,
        refunds: state.payment.refunds,
        recordingIds: state.payment.recordingRefundIds,
        keys: state.payment.refundKeys,
        recordedKeys: state.payment.recordedRefundKeys,
      },
      { refundedCents: platform.refundedAmountCents, refunds: platformRefunds(platform.records) },
      new Date(input.now)
    )
    if (cut.length === 0) return new StepResponse<string[]>([])
    await removeRefunds(container, state, cut)
    for (const refund of cut) await announce(container, state, refund)
    return new StepResponse(cut.map((refund) => refund.id))
  }
)

async function removeRefunds(container: MedusaContainer, state: RefpaySessionState, cut: MedusaRefundRecord[]) {
  const ids = cut.map((refund) => refund.id)
  if (state.order) {
    const orders = container.resolve<IOrderModuleService>(Modules.ORDER)
    const booked = await orders.listOrderTransactions(
      { order_id: state.order.id, reference: "refund", reference_id: ids },
      { select: ["id"] }
    )
    if (booked.length > 0) await orders.deleteOrderTransactions(booked.map((transaction) => transaction.id))
  }
  await container.resolve<IPaymentModuleService>(Modules.PAYMENT).deleteRefunds(ids)
}

async function announce(container: MedusaContainer, fresh: RefpaySessionState, refund: MedusaRefundRecord) {
  const payload = {
    order_id: fresh.order?.id ?? null,
    payment_id: fresh.payment!.id,
    refund_id: refund.id,
    refpay_payment_id: fresh.data.refpay!.payment_id,
    amount_cents: refund.cents,
    created_at: refund.createdAt,
  }
  await container
    .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
    .emit({ name: REFUND_INTERRUPTED_EVENT, data: payload })
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .warn(
      `REFPAY: refund ${refund.id} of ${refund.cents} cents (order ${payload.order_id}) was cut short before the ` +
        `platform made it (the server stopped during the call); removed from Medusa: refund again`
    )
}

import { cancelOrderWorkflow, processPaymentWorkflow, refundPaymentWorkflow } from "@medusajs/core-flows"
import type { IEventBusModuleService, ILockingModule, IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { RefpayPaymentStatus } from "../../lib/refpay"
import { fromCents } from "../../providers/refpay/money"
import { referenceWithStatus, type RefpaySessionData } from "../../providers/refpay/session-data"
import { interpretStatus } from "../../providers/refpay/status"
import { decideSync, type SyncDecision } from "./decide"
import { refpayProvider } from "./provider"
import { loadRefpaySession, type RefpaySessionState } from "./load-state"

export const PAID_AFTER_CANCELLATION_EVENT = "refpay.payment.paid_after_cancellation"
export const AMOUNT_MISMATCH_EVENT = "refpay.payment.amount_mismatch"

export type SyncReason = "webhook" | "poll" | "admin" | "order_canceled"

export interface SyncResult {
  sessionId: string
  /** What was done: a SyncDecision kind, or "not_found". */
  action: SyncDecision["kind"] | "not_found"
  platformStatus?: string
}

const LOCK_TIMEOUT_SECONDS = 30

/**
 * Brings one REFPAY payment session in line with the platform. Every trigger (either webhook door, the poll job,
 * the admin's "check now") lands here, so there is one logic: read the real status from the platform, decide with
 * `decideSync`, act through Medusa's own workflows. Runs under a lock of Medusa's locking module keyed on the
 * session, so concurrent triggers in one process or several (with a shared locking provider) act once.
 */
export interface SyncInput {
  sessionId: string
  reason: SyncReason
  /** The time expiry is judged against; tests and the poll job pass their own. */
  now?: Date
}

export async function syncRefpayPayment(container: MedusaContainer, input: SyncInput): Promise<SyncResult> {
  const locking = container.resolve<ILockingModule>(Modules.LOCKING)
  return locking.execute(`refpay:session:${input.sessionId}`, () => syncUnlocked(container, input), {
    timeout: LOCK_TIMEOUT_SECONDS,
  })
}

async function syncUnlocked(container: MedusaContainer, input: SyncInput): Promise<SyncResult> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const state = await loadRefpaySession(container, input.sessionId)
  if (!state) return { sessionId: input.sessionId, action: "not_found" }

  const provider = await refpayProvider(container)
  const platform = await provider.client.getPayment(state.data.refpay!.payment_id)
  const status = interpretStatus(platform.status)
  const decision = decideSync(
    {
      sessionStatus: state.status,
      captured: !!state.payment?.capturedAt,
      orderId: state.order?.id ?? null,
      orderCanceled: state.order?.status === "canceled",
      amountCents: state.data.amount_cents,
      expiresAt: new Date(platform.expiresAt ?? state.data.refpay!.expires_at),
      latePaymentRecorded: !!state.data.paid_after_cancellation_at,
    },
    { status, amountCents: platform.amountCents },
    input.now ?? new Date(),
    provider.settings.expiryGraceHours * 3_600_000
  )
  if (!status.known) logger.warn(`REFPAY: unknown platform status "${platform.status}" for session ${state.id}; treated as awaiting`)
  if (decision.kind !== "none" && decision.kind !== "record_check") {
    logger.info(`REFPAY: session ${state.id} (${input.reason}): platform ${platform.status} -> ${decision.kind}`)
  }
  await act(container, state, platform, decision)
  return { sessionId: state.id, action: decision.kind, platformStatus: platform.status }
}

async function act(container: MedusaContainer, state: RefpaySessionState, platform: RefpayPaymentStatus, decision: SyncDecision) {
  const synced = withPlatformStatus(state, platform)
  switch (decision.kind) {
    case "none":
      return
    case "record_check":
      return saveSession(container, state, synced)
    case "capture":
      return capture(container, state)
    case "capture_late":
      await capture(container, state)
      return flagLatePayment(container, state)
    case "flag_late":
      return flagLatePayment(container, state)
    case "cancel_order":
      await saveSession(container, state, synced, "canceled")
      return cancelOrder(container, state)
    case "mark_cancelled":
      return saveSession(container, state, synced, "canceled")
    case "cancel_reference":
      return cancelReference(container, state, synced)
    case "expire":
      return expire(container, state, synced)
    case "amount_mismatch":
      return reportAmountMismatch(container, state, platform)
  }
}

function withPlatformStatus(state: RefpaySessionState, platform: RefpayPaymentStatus): RefpaySessionData {
  return { ...state.data, refpay: referenceWithStatus(state.data.refpay!, platform, new Date()) }
}

async function saveSession(
  container: MedusaContainer,
  state: RefpaySessionState,
  data: Record<string, unknown>,
  status?: "canceled"
): Promise<void> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  await payments.updatePaymentSession({
    id: state.id,
    data,
    amount: state.amount,
    currency_code: state.currencyCode,
    ...(status ? { status } : {}),
  })
}

/**
 * The payment is recorded the way Medusa records any webhook-confirmed payment: processPaymentWorkflow authorises
 * the session again (the provider reads the platform and reports `captured`) and records the capture. It locks the
 * cart, and a capture of a captured payment is a no-op, so a concurrent core webhook run cannot double it.
 */
async function capture(container: MedusaContainer, state: RefpaySessionState): Promise<void> {
  await processPaymentWorkflow(container).run({
    input: { action: "captured", data: { session_id: state.id, amount: fromCents(state.data.amount_cents) } },
  })
}

async function flagLatePayment(container: MedusaContainer, state: RefpaySessionState): Promise<void> {
  const fresh = await loadRefpaySession(container, state.id)
  if (!fresh) return
  const at = new Date().toISOString()
  await saveSession(container, fresh, { ...fresh.data, paid_after_cancellation_at: at })
  const eventBus = container.resolve<IEventBusModuleService>(Modules.EVENT_BUS)
  const payload = {
    order_id: fresh.order?.id ?? null,
    payment_session_id: fresh.id,
    payment_id: fresh.payment?.id ?? null,
    refpay_payment_id: fresh.data.refpay!.payment_id,
    amount_cents: fresh.data.amount_cents,
    paid_after_cancellation_at: at,
  }
  await eventBus.emit({ name: PAID_AFTER_CANCELLATION_EVENT, data: payload })
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .warn(`REFPAY: order ${payload.order_id} was paid after it was cancelled (${payload.amount_cents} cents); refund it`)
  const { autoRefundLatePayments } = (await refpayProvider(container)).settings
  if (autoRefundLatePayments && fresh.payment?.id) {
    await refundPaymentWorkflow(container).run({
      input: { payment_id: fresh.payment.id, amount: fromCents(fresh.data.amount_cents), note: "REFPAY: paid after the order was cancelled" },
    })
  }
}

async function cancelOrder(container: MedusaContainer, state: RefpaySessionState): Promise<void> {
  if (!state.order || state.order.status === "canceled") return
  await cancelOrderWorkflow(container).run({ input: { order_id: state.order.id, canceled_by: "refpay" } })
}

async function cancelReference(container: MedusaContainer, state: RefpaySessionState, synced: Record<string, unknown>): Promise<void> {
  const provider = await refpayProvider(container)
  const { data } = await provider.cancelPayment({ data: synced })
  await saveSession(container, state, data ?? synced, "canceled")
}

/**
 * Unpaid past validity and grace: cancel the reference first. If the customer paid in the meantime the provider
 * refuses to cancel it ("already paid"), and the next sync records the payment: nothing is lost.
 */
async function expire(container: MedusaContainer, state: RefpaySessionState, synced: RefpaySessionData) {
  const provider = await refpayProvider(container)
  let data: Record<string, unknown>
  try {
    data = (await provider.cancelPayment({ data: synced })).data ?? synced
  } catch (error) {
    if (error instanceof MedusaError && error.type === MedusaError.Types.NOT_ALLOWED) {
      await syncUnlocked(container, { sessionId: state.id, reason: "poll" })
      return
    }
    throw error
  }
  const expired = { ...data, expired_at: new Date().toISOString() }
  await saveSession(container, state, expired, "canceled")
  if (provider.settings.cancelExpiredOrders) await cancelOrder(container, state)
}

async function reportAmountMismatch(container: MedusaContainer, state: RefpaySessionState, platform: RefpayPaymentStatus) {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  logger.error(
    `REFPAY: payment for session ${state.id} reports ${platform.amountCents} cents but the order is for ${state.data.amount_cents}; not captured, check it on the platform`
  )
  const eventBus = container.resolve<IEventBusModuleService>(Modules.EVENT_BUS)
  await eventBus.emit({
    name: AMOUNT_MISMATCH_EVENT,
    data: { payment_session_id: state.id, order_id: state.order?.id ?? null, expected_cents: state.data.amount_cents, platform_cents: platform.amountCents },
  })
}


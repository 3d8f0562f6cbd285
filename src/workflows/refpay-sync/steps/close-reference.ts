import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { referenceWithStatus, type RefpaySessionData } from "../../../rules/session-data"
import { interpretStatus } from "../../../rules/status"
import { expiryOutcome, type ExpiryOutcome, type PlatformCancelResult } from "../../../rules/expiry-policy"
import { refpayProviderFor } from "../../../providers/refpay/refpay-providers"
import { snapshotOf } from "../branches"
import { writeSession, type SessionWrite } from "./session-write"
import type { SyncSnapshot } from "./read-refpay-payment"

type Read = Extract<SyncSnapshot, { kind: "read" }>

/**
 * What the platform did when asked to cancel: cancelled the reference; refunded the payment that landed between our
 * read and the call; or refused because the reference was already paid (nothing refunded: the money is held).
 */
export interface CancelOutcome {
  platformDid: PlatformCancelResult
  /** The platform met a payment: the next sync records it. */
  platformPaid: boolean
  data: RefpaySessionData | null
}

const NOT_ASKED: CancelOutcome = { platformDid: "nothing", platformPaid: false, data: null }

/** The session data with the status just read from the platform. */
export function syncedData(snapshot: Read): RefpaySessionData {
  return {
    ...snapshot.state.data,
    refpay: referenceWithStatus(snapshot.state.data.refpay!, snapshot.platform, new Date()),
  }
}

/**
 * Cancels the reference on the platform (an order cancelled in Medusa, a reference unpaid past validity, or one
 * for an amount the order no longer has).
 * Whatever the platform did is returned: a cancellation, or a refund if the payment landed first.
 */
export const cancelRefpayReferenceStep = createStep(
  "refpay-cancel-reference",
  async (input: { snapshot: SyncSnapshot }, { container }) => {
    const snapshot = snapshotOf(input.snapshot)
    const provider = await refpayProviderFor(container, snapshot.state.providerId)
    try {
      const { data } = await provider.cancelPayment({ data: syncedData(snapshot) })
      const cancelled = data as RefpaySessionData
      const platformPaid = interpretStatus(cancelled.refpay!.status).outcome === "paid"
      return new StepResponse<CancelOutcome>({
        platformDid: platformPaid ? "refunded" : "cancelled",
        platformPaid,
        data: cancelled,
      })
    } catch (error) {
      // Paid between our read and the call: nothing to cancel; the next sync records the payment.
      if (error instanceof MedusaError && error.type === MedusaError.Types.NOT_ALLOWED) {
        return new StepResponse<CancelOutcome>({ platformDid: "refused_paid", platformPaid: true, data: null })
      }
      throw error
    }
  }
)

/** What the sync knows of the cancellation when it asked the platform for none. */
export function cancelOutcomeOrNotAsked(outcome: CancelOutcome | undefined): CancelOutcome {
  return outcome ?? NOT_ASKED
}

/** The session's new data and status, when the decision changes them; null when it does not. */
export function sessionUpdate(snapshot: SyncSnapshot, cancelled: CancelOutcome): SessionWrite | null {
  if (snapshot.kind !== "read") return null
  const { decision, state } = snapshot
  switch (decision.kind) {
    case "cancel_order":
    case "mark_canceled":
      return { id: state.id, data: syncedData(snapshot), status: "canceled" }
    case "cancel_reference":
    case "reissue":
      return cancelled.platformPaid
        ? null
        : { id: state.id, data: cancelled.data ?? syncedData(snapshot), status: "canceled" }
    case "expire":
      if (cancelled.platformPaid) return null
      return {
        id: state.id,
        data: { ...(cancelled.data ?? syncedData(snapshot)), expired_at: new Date().toISOString() },
        status: "canceled",
      }
    default:
      return null
  }
}

/** Brings the session in line; undone (previous data and status restored) if a later step fails. */
export const saveRefpaySessionStep = createStep(
  "refpay-save-session",
  async (input: { snapshot: SyncSnapshot; update: SessionWrite | null }, { container }) => {
    const { state } = snapshotOf(input.snapshot)
    if (!input.update) throw new Error("REFPAY sync: the session write ran without a change")
    const previous: SessionWrite = { id: state.id, data: state.data, status: state.status }
    await writeSession(container, input.update)
    return new StepResponse(input.update, previous)
  },
  async (previous: SessionWrite | undefined, { container }) => {
    if (previous) await writeSession(container, previous)
  }
)

/** What the expiry policy makes of an expired reference: renew it, cancel the order, or keep the order as it is. */
export const refpayExpiryOutcomeStep = createStep(
  "refpay-expiry-outcome",
  async (input: { snapshot: SyncSnapshot; cancelled: CancelOutcome }, { container }) => {
    const { cancelled } = input
    const snapshot = snapshotOf(input.snapshot)
    const settings = (await refpayProviderFor(container, snapshot.state.providerId)).settings
    return new StepResponse<ExpiryOutcome>(
      expiryOutcome({
        policy: settings.expiryPolicy,
        maxRenewals: settings.maxRenewals,
        expiredSoFar: snapshot.state.siblings.filter((sibling) => sibling.expired).length + 1,
        cancelExpiredOrders: settings.cancelExpiredOrders,
        orderOpen: !!snapshot.state.order && snapshot.state.order.status !== "canceled",
        orderPaidElsewhere: snapshot.state.orderPaidElsewhere,
        platformDid: cancelled.platformDid,
      })
    )
  }
)

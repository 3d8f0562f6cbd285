import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { RefpayNotFoundError, type RefpayClient, type RefpayPaymentStatus } from "../../../lib/refpay"
import { amountLimitRefusal } from "../../../rules/amount-limits"
import { interpretStatus } from "../../../rules/status"
import type { CheckFailure } from "../../../rules/check-schedule"
import { decideSync, type SyncDecision } from "../../../rules/sync-decision"
import { loadRefpaySession, type RefpaySessionState } from "../../../queries/refpay-session-state"
import { refpayProviderFor } from "../../../providers/refpay/refpay-providers"
import type { RefpayProviderService } from "../../../providers/refpay/service"

export type SyncSnapshot =
  | { kind: "not_found" }
  | {
      kind: "read"
      state: RefpaySessionState
      platform: RefpayPaymentStatus
      decision: SyncDecision
      /** A new reference for what the collection asks now is within the account's amount limits. */
      canIssue: boolean
    }
  | { kind: "failed"; state: RefpaySessionState; failure: CheckFailure; message: string }

/**
 * Medusa's side (session, payment, order) and the platform's status of one REFPAY session, read fresh, and what
 * the decision table makes of them. A platform that does not know the payment, or does not answer, is a failed
 * check: recorded, never acted on (nothing is cancelled because of it).
 */
export async function readRefpayPayment(
  container: MedusaContainer,
  sessionId: string,
  now: Date
): Promise<SyncSnapshot> {
  const state = await loadRefpaySession(container, sessionId)
  if (!state) return { kind: "not_found" }
  const provider = await refpayProviderFor(container, state.providerId)
  return judgeSnapshot(state, await readPlatform(provider.client, state), now, provider)
}

/** The platform's status of the session's payment, or why it could not be read. */
export async function readPlatform(
  client: Pick<RefpayClient, "getPayment">,
  state: RefpaySessionState
): Promise<PlatformRead> {
  try {
    return { ok: true, platform: await client.getPayment(state.data.refpay!.payment_id) }
  } catch (error) {
    const failure: CheckFailure = error instanceof RefpayNotFoundError ? "unknown_payment" : "platform_error"
    return { ok: false, failure, message: (error as Error).message }
  }
}

export type PlatformRead =
  { ok: true; platform: RefpayPaymentStatus } | { ok: false; failure: CheckFailure; message: string }

/** What the decision table makes of both sides (pure: the poll run judges a page of sessions read at once). */
export function judgeSnapshot(
  state: RefpaySessionState,
  read: PlatformRead,
  now: Date,
  provider: Pick<RefpayProviderService, "settings" | "amountLimits">
): SyncSnapshot {
  if (!read.ok) return { kind: "failed", state, failure: read.failure, message: read.message }
  const { platform } = read
  const expiresAt = new Date(platform.expiresAt ?? state.data.refpay!.expires_at)
  const expired =
    platform.status.trim().toUpperCase() === "EXPIRED" || platform.reasonCode === "EXPIRED" || now >= expiresAt
  const decision = decideSync(
    {
      sessionStatus: state.status,
      captured: !!state.payment?.capturedAt,
      orderId: state.order?.id ?? null,
      orderCanceled: state.order?.status === "canceled",
      amountCents: state.data.amount_cents,
      collectionAmountCents: state.collection.amountCents,
      refundedCents: state.payment?.refundedCents ?? 0,
      expiresAt,
      latePaymentRecorded: !!state.data.paid_after_cancellation_at,
      superseded: state.siblings.some((sibling) => sibling.captured),
      orderPaidElsewhere: state.orderPaidElsewhere,
    },
    {
      status: interpretStatus(platform.status),
      amountCents: platform.amountCents,
      refundedCents: platform.refundedAmountCents,
      expired,
    },
    now,
    provider.settings.expiryGraceHours * 3_600_000
  )
  const due = state.collection.amountCents
  const canIssue = due > 0 && !amountLimitRefusal(due, provider.amountLimits)
  return { kind: "read", state, platform, decision, canIssue }
}

export const readRefpayPaymentStep = createStep(
  "refpay-read-payment",
  async (input: { sessionId: string; now: string }, { container }) => {
    return new StepResponse(await readRefpayPayment(container, input.sessionId, new Date(input.now)))
  }
)

import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { SyncDecision } from "../rules/sync-decision"
import type { SyncSnapshot } from "../workflows/refpay-sync/steps/read-refpay-payment"
import { refpaySyncWorkflow } from "../workflows/refpay-sync/sync-workflow"
import { refpayDeletedSessionWorkflow } from "../workflows/refpay-sync/deleted-session"
import { asError } from "../medusa-compat/runas-step-errors"

export { PAID_AFTER_CANCELLATION_EVENT } from "../workflows/refpay-sync/steps/record-payment"
export { AMOUNT_MISMATCH_EVENT } from "../workflows/refpay-sync/steps/record-check"

export type SyncReason = "webhook" | "poll" | "admin" | "order_canceled" | "order_changed"

export interface SyncResult {
  sessionId: string
  /** What was done: a SyncDecision kind, or "not_found". */
  action: SyncDecision["kind"] | "not_found"
  platformStatus?: string
}

export interface SyncInput {
  sessionId: string
  reason: SyncReason
  /** The time expiry is judged against; tests and the poll job pass their own. */
  now?: Date
}

/**
 * Brings one REFPAY payment session in line with the platform. Every trigger (either webhook route, the poll job,
 * the admin's "check now", an order cancelled in Medusa) lands here, so there is one logic: the sync workflow takes
 * the session's lock (Medusa's locking module: one process or several, with a shared locking provider), reads the
 * real status, decides with `decideSync` and acts through Medusa's own workflows. A check that could not read the
 * platform is recorded and then thrown, so a webhook is answered for a retry.
 */
export async function syncRefpayPayment(container: MedusaContainer, input: SyncInput): Promise<SyncResult> {
  const now = (input.now ?? new Date()).toISOString()
  const { result } = await refpaySyncWorkflow(container)
    .run({ input: { sessionId: input.sessionId, now } })
    .catch((error: unknown) => {
      throw asError(error)
    })
  const { snapshot } = result
  if (snapshot.kind === "failed") throw checkFailed(snapshot)
  if (snapshot.kind === "not_found") return syncDeletedSession(container, input.sessionId, now)
  const action = snapshot.decision.kind
  if (PAID.has(action)) await cancelSupersededReferences(container, snapshot, input)
  if (action !== "none" && action !== "record_check") {
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .info(`REFPAY: session ${input.sessionId} (${input.reason}): platform ${snapshot.platform.status} -> ${action}`)
  }
  return { sessionId: input.sessionId, action, platformStatus: snapshot.platform.status }
}

const PAID = new Set<string>(["capture", "capture_late", "capture_refunded"])

/**
 * The session is gone (Medusa deleted it) but the plugin kept the reference: its late payment is flagged and
 * refunded from that record (refpayDeletedSessionWorkflow). "not_found" when nothing was kept.
 */
async function syncDeletedSession(container: MedusaContainer, sessionId: string, now: string): Promise<SyncResult> {
  const { result } = await refpayDeletedSessionWorkflow(container)
    .run({ input: { sessionId, now, refund: "as_configured" } })
    .catch((error: unknown) => {
      throw asError(error)
    })
  if (!result.found) return { sessionId, action: "not_found" }
  const action = result.plan?.flag ? "flag_late" : result.refundedCents > 0 ? "record_refund" : "record_check"
  return { sessionId, action, platformStatus: result.platformStatus ?? undefined }
}

/**
 * The order was paid through this reference: any other reference of the order still payable (a renewed one, or the
 * one it replaced) is cancelled through its own locked sync, so the customer cannot pay twice. After the paying
 * session's lock is released, so no sync ever holds two sessions' locks.
 */
async function cancelSupersededReferences(
  container: MedusaContainer,
  snapshot: Extract<SyncSnapshot, { kind: "read" }>,
  input: SyncInput
) {
  for (const sibling of snapshot.state.siblings.filter((s) => s.status === "pending_authorization")) {
    await syncRefpayPayment(container, { sessionId: sibling.id, reason: input.reason, now: input.now }).catch((error) =>
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .warn(
          `REFPAY: superseded reference of session ${sibling.id} not cancelled yet (${(error as Error).message}); the poll job retries`
        )
    )
  }
}

function checkFailed(snapshot: Extract<SyncSnapshot, { kind: "failed" }>): MedusaError {
  const { refpay } = snapshot.state.data
  if (snapshot.failure === "unknown_payment") {
    // NOT_ALLOWED (400) keeps the message; Medusa replaces a CONFLICT's message with a generic one.
    return new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `The REFPAY platform does not know payment ${refpay!.payment_id} (entity ${refpay!.entity}, reference ${refpay!.reference}). ` +
        "Nothing was changed; check the shop's REFPAY environment and credentials, or the payment on the platform."
    )
  }
  return new MedusaError(
    MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
    `REFPAY is unavailable right now: payment ${refpay!.payment_id} could not be checked. It is checked again automatically.`
  )
}

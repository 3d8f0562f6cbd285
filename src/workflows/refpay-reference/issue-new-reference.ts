import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import {
  createStep,
  createWorkflow,
  StepResponse,
  transform,
  when,
  WorkflowResponse,
} from "@medusajs/framework/workflows-sdk"
import { referenceExpiredEmail } from "../../rules/customer-emails"
import { buildPaymentView } from "../../rules/payment-view"
import { sendRefpayNotification } from "../refpay-notify/send-notification"
import { renewalRefusal } from "../../rules/expiry-policy"
import { loadRefpaySession, type RefpaySessionState } from "../../queries/refpay-session-state"
import { refpaySessionLockKey } from "../refpay-sync/session-lock"
import { loadOrderPaymentView } from "../../queries/payment-view"
import { acquireLeasedLock, releaseLeasedLock } from "../locks/leased-lock"
import { renewalOf, issueRefpayReferenceWorkflow } from "./issue-reference"

interface IssueNewReferenceInput {
  order_id: string
  /** The order's latest session when asked: its lock is the one held. */
  latest_session_id: string
}

/** Under the lock: the order read again, and refused unless all its references expired or were cancelled unpaid. */
const planNewReferenceStep = createStep(
  "refpay-plan-new-reference",
  async (input: IssueNewReferenceInput, { container }) => {
    const { session, sessions } = await loadOrderPaymentView(container, input.order_id)
    const refusal = renewalRefusal({
      orderStatus: session.order?.status ?? "canceled",
      sessions: sessions.map((s) => ({ status: s.status, captured: !!s.payment?.capturedAt })),
    })
    if (refusal)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `A new REFPAY reference cannot be issued: ${refusal}.`)
    return new StepResponse(session)
  }
)

/** The customer gets the new reference by e-mail, with the one it replaces. */
const emailNewReferenceStep = createStep(
  "refpay-email-new-reference",
  async (input: { previous: RefpaySessionState; sessionId: string }, { container }) => {
    await emailNewReference(container, input.previous, input.sessionId)
    return new StepResponse(input.sessionId)
  }
)

async function emailNewReference(container: MedusaContainer, previous: RefpaySessionState, sessionId: string) {
  const renewed = await loadRefpaySession(container, sessionId)
  const oldView = buildPaymentView(previous)
  const newView = renewed && buildPaymentView(renewed)
  if (!oldView || !newView || !previous.order) return
  const order = { id: previous.order.id, display_id: previous.order.displayId, email: previous.order.email }
  const email = referenceExpiredEmail(oldView, order, { renewed: newView })
  if (email.send) await sendRefpayNotification(container, email.notification)
}

/**
 * The admin's "Issue a new reference": the same renewal as the expiry policy's, for an open order whose references
 * all expired or were cancelled unpaid, under the lock of its latest session; the customer gets the new reference
 * by e-mail. A reference another path issued on the collection meanwhile stands, and was e-mailed by that path.
 * Answers the new session id.
 */
export const issueNewRefpayReferenceWorkflow = createWorkflow(
  "refpay-issue-new-reference",
  (input: IssueNewReferenceInput) => {
    const lock = acquireLeasedLock(
      transform({ input }, ({ input }) => ({ key: refpaySessionLockKey(input.latest_session_id) }))
    )
    const previous = planNewReferenceStep(input)
    const issued = issueRefpayReferenceWorkflow.runAsStep({
      input: transform({ previous }, ({ previous }) => renewalOf(previous)),
    })
    when("refpay-when-new-reference-issued", { issued }, ({ issued }) => issued.issued).then(() => {
      emailNewReferenceStep({ previous, sessionId: issued.session_id })
    })
    releaseLeasedLock(lock)
    return new WorkflowResponse(issued.session_id)
  }
)

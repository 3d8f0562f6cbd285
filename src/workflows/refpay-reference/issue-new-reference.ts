import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { referenceExpiredEmail } from "../../rules/customer-emails"
import { buildPaymentView } from "../../rules/payment-view"
import { sendRefpayNotification } from "../refpay-notify/send-notification"
import { renewalRefusal } from "../../rules/expiry-policy"
import { loadRefpaySession } from "../../queries/refpay-session-state"
import { refpaySessionLockKey, SESSION_LOCK_WAIT_SECONDS } from "../refpay-sync/session-lock"
import { loadOrderPaymentView } from "../../queries/payment-view"
import { renewalOf, issueRefpayReferenceWorkflow } from "./issue-reference"

/**
 * The admin's "Issue a new reference": the same renewal as the expiry policy's, for an open order whose references
 * all expired or were cancelled unpaid, under the lock of its latest session; the customer gets the new reference
 * by e-mail. Answers the new session id.
 */
export async function issueNewRefpayReference(container: MedusaContainer, orderId: string): Promise<string> {
  const { session: latest } = await loadOrderPaymentView(container, orderId)
  const locking = container.resolve<ILockingModule>(Modules.LOCKING)
  return locking.execute(
    refpaySessionLockKey(latest.id),
    async () => {
      const { session, sessions } = await loadOrderPaymentView(container, orderId)
      const refusal = renewalRefusal({
        orderStatus: session.order?.status ?? "canceled",
        sessions: sessions.map((s) => ({ status: s.status, captured: !!s.payment?.capturedAt })),
      })
      if (refusal)
        throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `A new REFPAY reference cannot be issued: ${refusal}.`)
      const { result } = await issueRefpayReferenceWorkflow(container).run({ input: renewalOf(session) })
      const newSessionId = result.session_id
      // A reference another path issued on the collection meanwhile stands, and was e-mailed by that path.
      if (!result.issued) return newSessionId
      const renewed = await loadRefpaySession(container, newSessionId)
      const oldView = buildPaymentView(session)
      const newView = renewed && buildPaymentView(renewed)
      if (oldView && newView && session.order) {
        const order = { id: session.order.id, display_id: session.order.displayId, email: session.order.email }
        const email = referenceExpiredEmail(oldView, order, { renewed: newView })
        if (email.send) await sendRefpayNotification(container, email.notification)
      }
      return newSessionId
    },
    { timeout: SESSION_LOCK_WAIT_SECONDS }
  )
}

import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import {
  paymentDetailsChangedEmail,
  paymentReminderEmail,
  referenceExpiredEmail,
  type CustomerEmail,
} from "../../../rules/customer-emails"
import { buildPaymentView } from "../../../rules/payment-view"
import { sendRefpayNotification } from "../../refpay-notify/send-notification"
import { loadRefpaySession, type RefpaySessionState } from "../../../queries/refpay-session-state"
import type { PlacedOrder } from "../../../rules/payment-instructions"
import { refpayProviderFor } from "../../../providers/refpay/refpay-providers"
import type { SyncSnapshot } from "./read-refpay-payment"

/**
 * The customer e-mails the sync sends: the reminder before a waiting reference expires; after an expiry either the
 * new reference (renewed) or the news that the order was cancelled unpaid; after an edit changed the order's total,
 * the reference for the new amount. Each once per reference (Medusa's
 * notification idempotency key), best effort: a failure to send never undoes or blocks the payment's change.
 */
export const notifyRefpayCustomerStep = createStep(
  "refpay-notify-customer",
  async (
    input: { snapshot: SyncSnapshot; renewedSessionId: string | null; orderCanceled: boolean; now: string },
    { container }
  ) => {
    const { snapshot } = input
    if (snapshot.kind !== "read" || !snapshot.state.order) return new StepResponse<string | null>(null)
    const order = placedOrderOf(snapshot.state)!
    let email: CustomerEmail | null = null
    if (snapshot.decision.kind === "record_check") {
      const { settings } = await refpayProviderFor(container, snapshot.state.providerId)
      email = reminderOf(snapshot.state, settings.reminderHoursBeforeExpiry, new Date(input.now))
    } else if (snapshot.decision.kind === "expire" && (input.renewedSessionId || input.orderCanceled)) {
      const expired = await loadRefpaySession(container, snapshot.state.id)
      const renewed = input.renewedSessionId ? await loadRefpaySession(container, input.renewedSessionId) : null
      const expiredView = expired && buildPaymentView(expired)
      const renewedView = renewed && buildPaymentView(renewed)
      if (expiredView)
        email = referenceExpiredEmail(expiredView, order, renewedView ? { renewed: renewedView } : { cancelled: true })
    } else if (snapshot.decision.kind === "reissue" && input.renewedSessionId) {
      const [replaced, current] = await Promise.all([
        loadRefpaySession(container, snapshot.state.id),
        loadRefpaySession(container, input.renewedSessionId),
      ])
      const replacedView = replaced && buildPaymentView(replaced)
      const currentView = current && buildPaymentView(current)
      if (replacedView && currentView) email = paymentDetailsChangedEmail(replacedView, order, currentView)
    }
    if (!email?.send) return new StepResponse<string | null>(null)
    const sent = await sendRefpayNotification(container, email.notification)
    return new StepResponse<string | null>(sent ? email.notification.template : null)
  }
)

function placedOrderOf(state: RefpaySessionState): PlacedOrder | null {
  return state.order ? { id: state.order.id, display_id: state.order.displayId, email: state.order.email } : null
}

/** The reminder a waiting reference's check sends (once: Medusa's notification idempotency key), if it is due. */
export function reminderOf(state: RefpaySessionState, hoursBefore: number, now: Date): CustomerEmail | null {
  const order = placedOrderOf(state)
  const view = order && buildPaymentView(state, now)
  return view ? paymentReminderEmail(view, order, hoursBefore, now) : null
}

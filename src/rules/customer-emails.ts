import type { CreateNotificationDTO } from "@medusajs/framework/types"
import { paymentInstructionsData, type PaymentInstructionsData, type PlacedOrder } from "./payment-instructions"
import type { RefpayPaymentView } from "./payment-view"

/** Templates a shop's e-mail provider maps to its own e-mails (or renders with `renderRefpayEmail`). */
export const PAYMENT_REMINDER_TEMPLATE = "refpay-payment-reminder"
export const REFERENCE_EXPIRED_TEMPLATE = "refpay-reference-expired"
export const PAYMENT_DETAILS_CHANGED_TEMPLATE = "refpay-payment-details-changed"

export type CustomerEmail = { send: true; notification: CreateNotificationDTO } | { send: false; reason: string }

const HOUR = 3_600_000

/**
 * The reminder a customer gets `hoursBefore` hours before the reference expires, once per reference (the
 * idempotency key names the platform payment), and only while it is still waiting: never for a paid or cancelled
 * one, never once it has expired.
 */
export function paymentReminderEmail(
  view: RefpayPaymentView,
  order: PlacedOrder,
  hoursBefore: number,
  now: Date
): CustomerEmail {
  if (hoursBefore <= 0) return { send: false, reason: "reminders are off" }
  const email = order.email?.trim()
  if (!email) return { send: false, reason: "the order has no e-mail address" }
  if (view.status !== "awaiting" || view.expired)
    return { send: false, reason: `the payment is ${view.expired ? "expired" : view.status}` }
  const deadline = Date.parse(view.expires_at)
  if (!Number.isFinite(deadline) || now.getTime() < deadline - hoursBefore * HOUR)
    return { send: false, reason: "not due yet" }
  return {
    send: true,
    notification: notification(
      email,
      PAYMENT_REMINDER_TEMPLATE,
      order,
      paymentInstructionsData(view, order),
      `refpay-reminder-${view.payment_id}`
    ),
  }
}

export interface ExpiredEmailData extends PaymentInstructionsData {
  outcome: "renewed" | "cancelled"
  expired_reference: { entity: string; reference: string; amount_cents: number; expires_at: string }
}

/**
 * The e-mail that answers an expired reference (spec 3 rule 2): the new reference when the order was renewed, or
 * that the order was cancelled unpaid. Once per expired reference.
 */
export function referenceExpiredEmail(
  expired: RefpayPaymentView,
  order: PlacedOrder,
  outcome: { renewed: RefpayPaymentView } | { cancelled: true }
): CustomerEmail {
  const email = order.email?.trim()
  if (!email) return { send: false, reason: "the order has no e-mail address" }
  const current = "renewed" in outcome ? outcome.renewed : expired
  const data: ExpiredEmailData = {
    ...paymentInstructionsData(current, order),
    outcome: "renewed" in outcome ? "renewed" : "cancelled",
    expired_reference: {
      entity: expired.entity,
      reference: expired.reference,
      amount_cents: expired.amount_cents,
      expires_at: expired.expires_at,
    },
  }
  return {
    send: true,
    notification: notification(email, REFERENCE_EXPIRED_TEMPLATE, order, data, `refpay-expired-${expired.payment_id}`),
  }
}

export interface DetailsChangedEmailData extends PaymentInstructionsData {
  replaced_reference: { entity: string; reference: string; amount_cents: number }
}

/**
 * The e-mail that follows an edit of an unpaid order: its total changed, so the old reference was cancelled and
 * this is the one to pay. Once per replaced reference.
 */
export function paymentDetailsChangedEmail(
  replaced: RefpayPaymentView,
  order: PlacedOrder,
  current: RefpayPaymentView
): CustomerEmail {
  const email = order.email?.trim()
  if (!email) return { send: false, reason: "the order has no e-mail address" }
  const data: DetailsChangedEmailData = {
    ...paymentInstructionsData(current, order),
    replaced_reference: { entity: replaced.entity, reference: replaced.reference, amount_cents: replaced.amount_cents },
  }
  return {
    send: true,
    notification: notification(
      email,
      PAYMENT_DETAILS_CHANGED_TEMPLATE,
      order,
      data,
      `refpay-changed-${replaced.payment_id}`
    ),
  }
}

function notification(
  to: string,
  template: string,
  order: PlacedOrder,
  data: object,
  key: string
): CreateNotificationDTO {
  return {
    to,
    channel: "email",
    template,
    data: { ...data },
    trigger_type: template,
    resource_id: order.id,
    resource_type: "order",
    idempotency_key: key,
  }
}

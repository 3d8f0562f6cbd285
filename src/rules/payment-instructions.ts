import type { CreateNotificationDTO } from "@medusajs/framework/types"
import type { RefpayPaymentView } from "./payment-view"

/** Template name a shop's e-mail provider (SendGrid, Resend, ...) maps to its own payment-instructions e-mail. */
export const PAYMENT_INSTRUCTIONS_TEMPLATE = "refpay-payment-instructions"

export interface PlacedOrder {
  id: string
  display_id?: number | string | null
  email?: string | null
}

/** What the template renders: how to pay, and by when. Entity and reference exactly as the platform issued them. */
export interface PaymentInstructionsData {
  order_id: string
  display_id: number | string | null
  entity: string
  reference: string
  amount_display: string
  amount_cents: number
  expires_at: string
}

export function paymentInstructionsData(view: RefpayPaymentView, order: PlacedOrder): PaymentInstructionsData {
  return {
    order_id: order.id,
    display_id: order.display_id ?? null,
    entity: view.entity,
    reference: view.reference,
    amount_display: view.amount_display,
    amount_cents: view.amount_cents,
    expires_at: view.expires_at,
  }
}

export type PaymentInstructionsDecision =
  { send: true; notification: CreateNotificationDTO } | { send: false; reason: string }

/**
 * The e-mail a customer gets when a REFPAY order is placed, or why none is sent: only a reference still waiting for
 * payment is worth e-mailing. The idempotency key is per order, so a repeated `order.placed` sends it once.
 */
export function paymentInstructionsNotification(
  view: RefpayPaymentView,
  order: PlacedOrder
): PaymentInstructionsDecision {
  return instructions(view, order, "order.placed", `refpay-instructions-${order.id}`)
}

/**
 * The same e-mail for a reference the shop or the customer requested for an outstanding amount of a placed order
 * (an edit, a claim, an exchange, an order created in the admin): once per reference.
 */
export function requestedPaymentNotification(view: RefpayPaymentView, order: PlacedOrder): PaymentInstructionsDecision {
  const decision = instructions(view, order, "refpay.payment_requested", `refpay-requested-${view.payment_id}`)
  // The collection, for the e-mail's link to the storefront's payment-link page (/payment-collection/<id>).
  if (decision.send)
    decision.notification.data = { ...decision.notification.data, payment_collection_id: view.payment_collection_id }
  return decision
}

function instructions(
  view: RefpayPaymentView,
  order: PlacedOrder,
  trigger: string,
  key: string
): PaymentInstructionsDecision {
  const email = order.email?.trim()
  if (!email) return { send: false, reason: "the order has no e-mail address" }
  if (view.status !== "awaiting") return { send: false, reason: `the payment is already ${view.status}` }
  if (view.expired) return { send: false, reason: "the reference has already expired" }
  return {
    send: true,
    notification: {
      to: email,
      channel: "email",
      template: PAYMENT_INSTRUCTIONS_TEMPLATE,
      data: { ...paymentInstructionsData(view, order) },
      trigger_type: trigger,
      resource_id: order.id,
      resource_type: "order",
      idempotency_key: key,
    },
  }
}

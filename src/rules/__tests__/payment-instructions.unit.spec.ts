import {
  PAYMENT_INSTRUCTIONS_TEMPLATE,
  paymentInstructionsData,
  paymentInstructionsNotification,
  requestedPaymentNotification,
} from "../payment-instructions"
import { ORDER, VIEW } from "./payment-view-fixture"

describe("payment instructions e-mail", () => {
  it("carries how to pay and by when, entity and reference verbatim", () => {
    expect(paymentInstructionsData(VIEW, ORDER)).toEqual({
      order_id: "order_01",
      display_id: 7,
      entity: "01234",
      reference: "000123450",
      amount_display: "24,98\u00a0€",
      amount_cents: 2498,
      expires_at: "2026-11-27T10:00:00.000Z",
    })
  })

  it("is an e-mail notification with the plugin's template, tied to the order, sent once per order", () => {
    expect(paymentInstructionsNotification(VIEW, ORDER)).toEqual({
      send: true,
      notification: {
        to: "maria.silva@example.com",
        channel: "email",
        template: PAYMENT_INSTRUCTIONS_TEMPLATE,
        data: paymentInstructionsData(VIEW, ORDER),
        trigger_type: "order.placed",
        resource_id: "order_01",
        resource_type: "order",
        idempotency_key: "refpay-instructions-order_01",
      },
    })
    expect(PAYMENT_INSTRUCTIONS_TEMPLATE).toBe("refpay-payment-instructions")
  })

  it("holds nothing but the order and the payment instructions", () => {
    const decision = paymentInstructionsNotification(VIEW, ORDER)
    expect(decision.send && Object.keys(decision.notification.data!)).toEqual([
      "order_id",
      "display_id",
      "entity",
      "reference",
      "amount_display",
      "amount_cents",
      "expires_at",
    ])
  })

  it.each([
    [{ ...ORDER, email: null }, VIEW, /no e-mail/],
    [{ ...ORDER, email: "  " }, VIEW, /no e-mail/],
    [ORDER, { ...VIEW, status: "paid" as const }, /already paid/],
    [ORDER, { ...VIEW, status: "cancelled" as const }, /already cancelled/],
    [ORDER, { ...VIEW, expired: true }, /expired/],
  ])("sends nothing when there is nothing to pay or no one to tell (%#)", (order, view, reason) => {
    const decision = paymentInstructionsNotification(view, order)
    expect(decision.send).toBe(false)
    expect(!decision.send && decision.reason).toMatch(reason)
  })

  it("uses a null display id when the order has none", () => {
    expect(paymentInstructionsData(VIEW, { id: "order_02", email: "a@b.pt" }).display_id).toBeNull()
  })

  it("names the payment collection in a requested reference's e-mail (its link to the payment-link page), not in the checkout's", () => {
    const requested = requestedPaymentNotification(VIEW, ORDER)
    expect(requested.send && requested.notification.data).toMatchObject({ payment_collection_id: "pay_col_01" })
    const checkout = paymentInstructionsNotification(VIEW, ORDER)
    expect(checkout.send && checkout.notification.data).not.toHaveProperty("payment_collection_id")
  })
})

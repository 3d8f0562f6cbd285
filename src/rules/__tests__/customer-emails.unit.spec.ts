import { paymentDetailsChangedEmail, paymentReminderEmail, referenceExpiredEmail } from "../customer-emails"
import { ORDER, VIEW } from "./payment-view-fixture"

const at = (iso: string) => new Date(iso)

describe("payment reminder e-mail", () => {
  it("is due the configured hours before expiry, once per reference", () => {
    expect(paymentReminderEmail(VIEW, ORDER, 24, at("2026-11-26T09:59:00Z"))).toEqual({
      send: false,
      reason: "not due yet",
    })
    const due = paymentReminderEmail(VIEW, ORDER, 24, at("2026-11-26T10:00:00Z"))
    expect(due).toMatchObject({
      send: true,
      notification: {
        to: "maria.silva@example.com",
        template: "refpay-payment-reminder",
        idempotency_key: `refpay-reminder-${VIEW.payment_id}`,
      },
    })
  })

  it("is never sent for a paid, cancelled or expired reference, without an address, or when reminders are off", () => {
    const now = at("2026-11-26T12:00:00Z")
    expect(paymentReminderEmail({ ...VIEW, status: "paid" }, ORDER, 24, now).send).toBe(false)
    expect(paymentReminderEmail({ ...VIEW, status: "cancelled" }, ORDER, 24, now).send).toBe(false)
    expect(paymentReminderEmail({ ...VIEW, expired: true }, ORDER, 24, now).send).toBe(false)
    expect(paymentReminderEmail(VIEW, { ...ORDER, email: null }, 24, now).send).toBe(false)
    expect(paymentReminderEmail(VIEW, ORDER, 0, now).send).toBe(false)
  })
})

describe("reference expired e-mail", () => {
  it("carries the new reference and the expired one after a renewal, once per expired reference", () => {
    const renewed = {
      ...VIEW,
      payment_id: "new",
      entity: "05555",
      reference: "012345678",
      expires_at: "2026-12-04T10:00:00.000Z",
    }
    const email = referenceExpiredEmail({ ...VIEW, status: "cancelled", expired: true }, ORDER, { renewed })
    expect(email).toMatchObject({
      send: true,
      notification: {
        template: "refpay-reference-expired",
        idempotency_key: `refpay-expired-${VIEW.payment_id}`,
        data: {
          outcome: "renewed",
          entity: "05555",
          reference: "012345678",
          expired_reference: { entity: "01234", reference: "000123450" },
        },
      },
    })
  })

  it("says the order was cancelled when it was not renewed", () => {
    expect(referenceExpiredEmail(VIEW, ORDER, { cancelled: true })).toMatchObject({
      send: true,
      notification: { data: { outcome: "cancelled" } },
    })
  })
})

describe("payment details changed e-mail (an edit changed the unpaid order's total)", () => {
  const current = { ...VIEW, payment_id: "new", reference: "012345678", amount_cents: 4497 }

  it("carries the reference to pay now and the replaced one, once per replaced reference", () => {
    expect(paymentDetailsChangedEmail(VIEW, ORDER, current)).toMatchObject({
      send: true,
      notification: {
        template: "refpay-payment-details-changed",
        idempotency_key: `refpay-changed-${VIEW.payment_id}`,
        data: {
          reference: "012345678",
          amount_cents: 4497,
          replaced_reference: { entity: VIEW.entity, reference: VIEW.reference, amount_cents: VIEW.amount_cents },
        },
      },
    })
  })

  it("is not sent to an order without an e-mail address", () => {
    expect(paymentDetailsChangedEmail(VIEW, { ...ORDER, email: " " }, current)).toEqual({
      send: false,
      reason: "the order has no e-mail address",
    })
  })
})

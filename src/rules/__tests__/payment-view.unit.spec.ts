import { buildPaymentView, primarySession, type PaymentViewSource } from "../payment-view"
import type { RefpaySessionData } from "../session-data"

const NOW = new Date("2026-11-21T12:00:00.000Z")
const NBSP = /\u00a0/g

function sessionData(
  overrides: Partial<RefpaySessionData> = {},
  refpay: Partial<NonNullable<RefpaySessionData["refpay"]>> = {}
): RefpaySessionData {
  return {
    session_id: "payses_01JZ8X4K7M2N3P4Q5R6S7T8V9W",
    amount_cents: 2498,
    currency_code: "eur",
    generation: 0,
    customer: { email: "maria.silva@example.com", name: "Maria Silva", phone_number: "+351912345678" },
    refpay: {
      payment_id: "9f0e4c1a-6b1d-5a8e-9c3f-2d7b8e1f0a11",
      order_id: "ps_01JZ8X4K7M2N3P4Q5R6S7T8V9W",
      entity: "01234",
      reference: "000123450",
      amount: "2498",
      amount_cents: 2498,
      currency: "EUR",
      status: "WAITING",
      created_at: "2026-11-20T10:00:00.000Z",
      expires_at: "2026-11-27T10:00:00.000Z",
      refunded_cents: 0,
      checked_at: "2026-11-21T11:59:00.000Z",
      ...refpay,
    },
    ...overrides,
  }
}

function source(overrides: Partial<PaymentViewSource> = {}): PaymentViewSource {
  return {
    id: "payses_01JZ8X4K7M2N3P4Q5R6S7T8V9W",
    paymentCollectionId: "pay_col_01JZ8X4K7M2N3P4Q5R6S7T8V9W",
    status: "pending_authorization",
    data: sessionData(),
    payment: null,
    order: { id: "order_01JZ8X4K7M2N3P4Q5R6S7T8V9W", status: "pending" },
    ...overrides,
  }
}

describe("buildPaymentView: what the thank-you page and the admin widget show", () => {
  it("shows an awaiting reference with entity and reference verbatim, amount in cents and as euros, do not ship", () => {
    const view = buildPaymentView(source(), NOW)!
    expect({ ...view, amount_display: view.amount_display.replace(NBSP, " ") }).toEqual({
      order_id: "order_01JZ8X4K7M2N3P4Q5R6S7T8V9W",
      payment_session_id: "payses_01JZ8X4K7M2N3P4Q5R6S7T8V9W",
      payment_collection_id: "pay_col_01JZ8X4K7M2N3P4Q5R6S7T8V9W",
      payment_id: "9f0e4c1a-6b1d-5a8e-9c3f-2d7b8e1f0a11",
      entity: "01234",
      reference: "000123450",
      amount_cents: 2498,
      amount_display: "24,98 €",
      currency: "EUR",
      status: "awaiting",
      platform_status: "WAITING",
      expires_at: "2026-11-27T10:00:00.000Z",
      created_at: "2026-11-20T10:00:00.000Z",
      expired: false,
      paid_after_cancellation: false,
      paid_after_cancellation_at: null,
      checked_at: "2026-11-21T11:59:00.000Z",
      do_not_ship: true,
    })
  })

  it("keeps entity and reference as strings with their leading zeros", () => {
    const view = buildPaymentView(source({ data: sessionData({}, { entity: "00001", reference: "000000001" }) }), NOW)!
    expect(view.entity).toBe("00001")
    expect(view.reference).toBe("000000001")
    expect(typeof view.entity).toBe("string")
  })

  it("never exposes the customer snapshot or any key the view does not list", () => {
    const data = {
      ...sessionData(),
      client_secret: "sandbox-client-secret",
      webhook_secret: "fake-webhook-secret-for-tests",
    }
    const json = JSON.stringify(buildPaymentView(source({ data: data as RefpaySessionData }), NOW))
    expect(json).not.toMatch(/secret|maria|\+351|customer|generation/i)
  })

  it("is paid and shippable once Medusa recorded the capture", () => {
    const view = buildPaymentView(
      source({
        status: "authorized",
        payment: { capturedAt: "2026-11-21T11:00:00.000Z" },
        data: sessionData({}, { status: "APPROVED" }),
      }),
      NOW
    )!
    expect(view).toMatchObject({ status: "paid", platform_status: "APPROVED", do_not_ship: false, expired: false })
  })

  it("stays awaiting (do not ship) when the platform says APPROVED but Medusa has not recorded the capture", () => {
    const view = buildPaymentView(source({ data: sessionData({}, { status: "APPROVED" }) }), NOW)!
    expect(view).toMatchObject({ status: "awaiting", platform_status: "APPROVED", do_not_ship: true })
  })

  it("is cancelled when the order was cancelled, whatever the platform last said", () => {
    const view = buildPaymentView(source({ status: "canceled", order: { id: "order_1", status: "canceled" } }), NOW)!
    expect(view).toMatchObject({ status: "cancelled", expired: false, do_not_ship: true })
  })

  it("is cancelled when the platform cancelled the reference", () => {
    expect(buildPaymentView(source({ data: sessionData({}, { status: "CANCELLED" }) }), NOW)!.status).toBe("cancelled")
  })

  it("is failed on a platform failure, also on a cancelled order", () => {
    expect(buildPaymentView(source({ data: sessionData({}, { status: "FAILED" }) }), NOW)!.status).toBe("failed")
    expect(buildPaymentView(source({ status: "error" }), NOW)!.status).toBe("failed")
    const cancelled = source({ status: "canceled", data: sessionData({}, { status: "ERROR" }) })
    expect(buildPaymentView(cancelled, NOW)!.status).toBe("failed")
  })

  it("treats an unknown platform status as awaiting, never as paid", () => {
    expect(buildPaymentView(source({ data: sessionData({}, { status: "SETTLED_MAYBE" }) }), NOW)).toMatchObject({
      status: "awaiting",
      platform_status: "SETTLED_MAYBE",
      do_not_ship: true,
    })
  })

  it("marks expired: cancelled for expiry, reported EXPIRED, or awaiting past its validity", () => {
    const expiredByJob = source({
      status: "canceled",
      data: sessionData({ expired_at: "2026-11-28T11:00:00.000Z" }, { status: "CANCELLED" }),
    })
    expect(buildPaymentView(expiredByJob, NOW)).toMatchObject({ status: "cancelled", expired: true })
    expect(buildPaymentView(source({ data: sessionData({}, { status: "EXPIRED" }) }), NOW)).toMatchObject({
      status: "cancelled",
      expired: true,
    })
    const late = new Date("2026-11-27T10:00:00.001Z")
    expect(buildPaymentView(source(), late)).toMatchObject({ status: "awaiting", expired: true, do_not_ship: true })
    expect(buildPaymentView(source(), new Date("2026-11-27T10:00:00.000Z"))!.expired).toBe(false)
  })

  it("does not call a reference cancelled before its validity ended expired, even read later", () => {
    const cancelled = source({
      status: "canceled",
      order: { id: "order_1", status: "canceled" },
      data: sessionData({}, { status: "CANCELLED" }),
    })
    expect(buildPaymentView(cancelled, new Date("2027-01-01T00:00:00.000Z"))!.expired).toBe(false)
  })

  it("flags a payment made after the order was cancelled: paid, but never shippable", () => {
    const view = buildPaymentView(
      source({
        status: "authorized",
        payment: { capturedAt: "2026-11-21T11:00:00.000Z" },
        order: { id: "order_1", status: "canceled" },
        data: sessionData({ paid_after_cancellation_at: "2026-11-21T11:00:01.000Z" }, { status: "APPROVED" }),
      }),
      NOW
    )!
    expect(view).toMatchObject({
      status: "paid",
      paid_after_cancellation: true,
      paid_after_cancellation_at: "2026-11-21T11:00:01.000Z",
      do_not_ship: true,
      expired: false,
    })
  })

  it("has no view for a session without a reference yet", () => {
    expect(buildPaymentView(source({ data: sessionData({ refpay: null }) }), NOW)).toBeNull()
  })

  it("has no order id when the session is not linked to an order", () => {
    expect(buildPaymentView(source({ order: null }), NOW)!.order_id).toBeNull()
  })
})

describe("primarySession: which of an order's REFPAY sessions to show", () => {
  const at = (created_at: string) => sessionData({}, { created_at })

  it("prefers the captured session, then an open one, then the newest reference", () => {
    const cancelled = source({ id: "a", status: "canceled", data: at("2026-11-22T00:00:00Z") })
    const open = source({ id: "b", data: at("2026-11-20T00:00:00Z") })
    const newerOpen = source({ id: "c", data: at("2026-11-21T00:00:00Z") })
    const captured = source({
      id: "d",
      payment: { capturedAt: "2026-11-21T00:00:00Z" },
      data: at("2026-11-19T00:00:00Z"),
    })
    expect(primarySession([cancelled, open, newerOpen, captured])!.id).toBe("d")
    expect(primarySession([cancelled, open, newerOpen])!.id).toBe("c")
    expect(primarySession([cancelled])!.id).toBe("a")
    expect(primarySession([])).toBeNull()
  })

  it("shows the checkout's payment, the first captured, when a difference requested later was paid too", () => {
    const checkout = source({
      id: "checkout",
      payment: { capturedAt: "2026-11-20T00:00:00Z" },
      data: at("2026-11-19T00:00:00Z"),
    })
    const difference = source({
      id: "difference",
      payment: { capturedAt: "2026-11-23T00:00:00Z" },
      data: at("2026-11-22T00:00:00Z"),
    })
    expect(primarySession([difference, checkout])!.id).toBe("checkout")
  })
})

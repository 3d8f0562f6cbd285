import { assertRefpayOrderFulfillable } from "../fulfillment-rules"

const refpay = { provider_id: "pp_refpay_refpay", data: { refpay: { entity: "21098", reference: "012345678" } } }

describe("fulfilment guard rule", () => {
  it.each(["not_paid", "awaiting", "authorized", "canceled", "failed", "partially_captured"])(
    "refuses a REFPAY order whose payment collection is %s",
    (status) => {
      expect(() => assertRefpayOrderFulfillable([{ status, payment_sessions: [refpay] }])).toThrow(
        /cannot be fulfilled yet: its REFPAY payment \(entity 21098, reference 012345678\) has not been received/
      )
    }
  )

  it.each(["completed", "partially_refunded", "refunded"])("allows a REFPAY order whose collection is %s", (status) => {
    expect(() => assertRefpayOrderFulfillable([{ status, payment_sessions: [refpay] }])).not.toThrow()
  })

  it("leaves orders paid with other providers alone", () => {
    expect(() =>
      assertRefpayOrderFulfillable([{ status: "awaiting", payment_sessions: [{ provider_id: "pp_system_default" }] }])
    ).not.toThrow()
  })

  describe("a difference on an order already paid: blocks only while REFPAY is asked to collect it", () => {
    const paid = { status: "completed", payment_sessions: [{ ...refpay, status: "authorized" }] }
    const difference = (status: string, withReference = true) => ({
      status: "not_paid",
      payment_sessions: [
        { ...refpay, status, data: withReference ? refpay.data : { completion_started_at: "2026-11-28T10:00:00Z" } },
      ],
    })

    it.each<[string, ReturnType<typeof difference>, boolean]>([
      ["its reference waiting", difference("pending_authorization"), true],
      ["its reference being issued", difference("pending", false), true],
      ["its reference expired or cancelled", difference("canceled"), false],
      ["its reference failed", difference("error"), false],
    ])("%s", (_what, due, refused) => {
      const check = () => assertRefpayOrderFulfillable([paid, due])
      if (refused) expect(check).toThrow(/cannot be fulfilled yet/)
      else expect(check).not.toThrow()
    })

    it("leaves a difference with no REFPAY session to the shop", () => {
      expect(() => assertRefpayOrderFulfillable([paid, { status: "not_paid", payment_sessions: [] }])).not.toThrow()
    })
  })
})

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
})

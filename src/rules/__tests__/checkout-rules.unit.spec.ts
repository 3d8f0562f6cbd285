import { assertRefpayCheckoutAllowed, type CheckoutCart } from "../checkout-rules"

function cart(overrides: Partial<CheckoutCart> = {}): CheckoutCart {
  return {
    currency_code: "eur",
    total: 24.98,
    shipping_address: { country_code: "pt" },
    billing_address: { country_code: "pt" },
    payment_collection: {
      payment_sessions: [
        { id: "payses_1", provider_id: "pp_refpay_refpay", status: "pending", data: { amount_cents: 2498 } },
      ],
    },
    ...overrides,
  }
}

describe("REFPAY checkout rules (completeCartWorkflow validate hook)", () => {
  it("accepts a Portuguese cart in euros whose session amount matches the total", () => {
    expect(() => assertRefpayCheckoutAllowed(cart())).not.toThrow()
  })

  it("ignores carts paid with another provider", () => {
    const other = cart({
      shipping_address: { country_code: "es" },
      payment_collection: { payment_sessions: [{ id: "payses_2", provider_id: "pp_system_default" }] },
    })
    expect(() => assertRefpayCheckoutAllowed(other)).not.toThrow()
  })

  it("refuses a non-Portuguese shipping or billing address", () => {
    expect(() => assertRefpayCheckoutAllowed(cart({ shipping_address: { country_code: "es" } }))).toThrow(
      /Portugal only: the shipping address is in ES/
    )
    expect(() => assertRefpayCheckoutAllowed(cart({ billing_address: { country_code: "fr" } }))).toThrow(
      /billing address is in FR/
    )
  })

  it("refuses a cart with no address at all", () => {
    expect(() => assertRefpayCheckoutAllowed(cart({ shipping_address: null, billing_address: null }))).toThrow(
      /add a Portuguese/
    )
  })

  it("refuses another currency", () => {
    expect(() => assertRefpayCheckoutAllowed(cart({ currency_code: "usd" }))).toThrow(/euros only/)
  })

  it("refuses a session whose amount no longer matches the cart total", () => {
    expect(() => assertRefpayCheckoutAllowed(cart({ total: 30 }))).toThrow(/total changed/)
  })
})

import { MedusaError } from "@medusajs/framework/utils"
import { assertRefpayCheckoutAllowed, assertWithinAmountLimits, type CheckoutCart } from "../checkout-rules"
import { toMedusaError } from "../platform-errors"

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

describe("REFPAY amount limits at checkout (payment session, cart completion, authorisation)", () => {
  const limits = { minCents: 100, maxCents: 9_999_999 }
  const NBSP = /\u00a0/g

  function refusal(amountCents: number): MedusaError | undefined {
    try {
      assertWithinAmountLimits(amountCents, limits)
    } catch (error) {
      return error as MedusaError
    }
    return undefined
  }

  it.each([100, 101, 9_999_998, 9_999_999])("lets a reference for %p cents be issued", (cents) => {
    expect(refusal(cents)).toBeUndefined()
  })

  it.each([
    [
      99,
      "Uma referência REFPAY tem de ser de pelo menos 1,00 €, e este valor é de 0,99 €. Escolha outro método de pagamento. / " +
        "A REFPAY reference must be for at least €1.00, and this amount is €0.99. Please choose another payment method.",
    ],
    [
      10_000_000,
      "Uma referência REFPAY não pode ser de mais de 99 999,99 €, e este valor é de 100 000,00 €. Escolha outro método de pagamento. / " +
        "A REFPAY reference cannot be for more than €99,999.99, and this amount is €100,000.00. Please choose another payment method.",
    ],
  ])("refuses %p cents in Portuguese, then English, as a refusal a shopper may read", (cents, message) => {
    const error = refusal(cents)!
    expect(error.message.replace(NBSP, " ")).toBe(message)
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    // What a provider method hands Medusa for a shopper: this refusal as written, not the generic sentence.
    expect(toMedusaError(error, "create a payment reference", "shopper")).toBe(error)
  })
})

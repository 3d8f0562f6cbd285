import { LISBON_ADDRESS, prepareCart, selectRefpay } from "../fixtures/checkout"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(180 * 1000)

const CREATE_PATH = "/dpm/payments-gwproxy/v2/payments"

/** What every platform failure at checkout shows a shopper: Portuguese first (REFPAY is for Portuguese shops), then English. */
const SHOPPER_MESSAGE =
  "O pagamento por referência REFPAY não está disponível neste momento. Tente novamente ou escolha outro método de pagamento. / " +
  "REFPAY is unavailable right now; please try again or choose another payment method."

/** Platform detail and configuration names: for the log and the admin, never in a store API answer. */
const DETAIL = /REFPAY_[A-Z]|INJECTED_FAULT|INVALID_CUSTOMER|is not valid|sandbox-client/

refpayIntegrationSuite("What a shopper sees when REFPAY fails at checkout (store API)", (ctx) => {
  const { api, adminHeaders, control, store } = ctx

  /** POST /store/carts/:id/complete as a storefront sends it, whatever the status. */
  async function complete(cartId: string) {
    return api.post(`/store/carts/${cartId}/complete`, {}, ctx.storeHeaders()).catch((e: any) => e.response)
  }

  it.each([
    ["the platform refuses the shop's credentials (401)", { status: 401 }],
    ["the platform is down (500 on every retry)", { status: 500 }],
    ["the platform rate-limits the shop (429)", { status: 429 }],
    [
      "the platform refuses the request with its own detail (400)",
      { status: 400, body: { error_code: "INVALID_CUSTOMER", message: "customer.phone_number is not valid", details: [{ field: "phone_number", message: "bad format" }] } },
    ],
    ["the platform answers a body the client cannot read (200 {})", { status: 200, body: {} }],
  ])("answers a payment error with one generic sentence, no platform detail, when %s", async (_name, fault) => {
    const cart = await prepareCart(api, store())
    await selectRefpay(api, store(), cart)
    await control("POST", "/faults", { path: CREATE_PATH, method: "POST", count: 10, ...fault })

    const answer = await complete(cart.id)
    // Medusa's answer for a payment authorisation error: 200 with the cart, for the storefront to show the message.
    expect({ status: answer.status, type: answer.data.type, error: answer.data.error }).toEqual({
      status: 200,
      type: "cart",
      error: { message: SHOPPER_MESSAGE, name: "Error", type: "payment_authorization_error" },
    })
    expect(JSON.stringify(answer.data)).not.toMatch(DETAIL)
    expect((await api.get(`/admin/orders?fields=id`, adminHeaders())).data.orders).toHaveLength(0)

    await control("DELETE", "/faults")
    expect((await complete(cart.id)).data.type).toBe("order")
  })

  it("keeps the actionable refusals a shopper can fix: euros only (payment-sessions) and Portugal only (complete)", async () => {
    const usd = await prepareCart(api, store(), { regionId: store().usdRegion.id })
    const currency = await selectRefpay(api, store(), usd).catch((e: any) => e.response)
    expect(currency.status).toBe(400)
    expect(currency.data.message).toMatch(/^REFPAY accepts payments in euros only; this cart is in USD\./)

    const cart = await prepareCart(api, store(), { billingAddress: { ...LISBON_ADDRESS, country_code: "es" } })
    await selectRefpay(api, store(), cart)
    const country = await complete(cart.id)
    expect(country.status).toBe(400)
    expect(country.data.message).toMatch(/^REFPAY is available in Portugal only: the billing address is in ES\./)
  })
})

import { refpayProviderFor } from "../../src/workflows/refpay-sync/provider"
import { completeCart, LISBON_ADDRESS, placeRefpayOrder, prepareCart, selectRefpay } from "../fixtures/checkout"
import { handleRefpayWebhook } from "../../src/workflows/refpay-sync/handle-webhook"
import { processWebhookLikeCore } from "../fixtures/webhooks"
import { waitFor } from "../fixtures/wait"
import { refpayIntegrationSuite, TEST_WEBHOOK_SECRET } from "../harness"

jest.setTimeout(120 * 1000)

const AUTH = { "x-refpay-webhook-secret": TEST_WEBHOOK_SECRET }

refpayIntegrationSuite("REFPAY provider lifecycle through Medusa's store and admin APIs", (ctx) => {
  const { api, adminHeaders, control, store } = ctx

  async function adminOrder(orderId: string) {
    const fields = "+payment_status,*payment_collections,*payment_collections.payment_sessions,*payment_collections.payments,*payment_collections.payments.refunds"
    const { data } = await api.get(`/admin/orders/${orderId}?fields=${fields}`, adminHeaders())
    return data.order
  }

  const refpaySession = (order: any) => order.payment_collections[0].payment_sessions[0]
  const platformPayments = async () => (await control("GET", "/payments")).payments as any[]

  /** The customer pays; the platform's webhook reaches the plugin's sync (what either webhook door runs). */
  async function payAndProcess(order: any) {
    const paymentId = refpaySession(order).data.refpay.payment_id
    await control("POST", `/payments/${paymentId}/pay`)
    const event = { event_type: "APPROVED_TRANSACTIONS", payment_id: paymentId, order_id: refpaySession(order).data.refpay.order_id }
    return handleRefpayWebhook(ctx.getContainer(), { body: event, headers: AUTH, door: "refpay" })
  }

  it("completes checkout: order awaiting payment, entity and reference exactly as the sandbox returned them, amount in cents", async () => {
    await control("POST", "/next-reference", { entity: "01234", reference: "000123450" })
    const { completion } = await placeRefpayOrder(api, store())
    expect(completion.type).toBe("order")

    const order = await adminOrder(completion.order.id)
    expect(order.payment_status).toBe("awaiting")
    const session = refpaySession(order)
    expect(session.status).toBe("pending_authorization")
    expect(order.payment_collections[0].payments ?? []).toHaveLength(0)

    const [platform] = await platformPayments()
    expect(platform.additional_data).toEqual({ entity: "01234", reference: "000123450" })
    expect(session.data.refpay).toMatchObject({
      payment_id: platform.payment_id,
      order_id: platform.order_id,
      entity: "01234",
      reference: "000123450",
      amount: "2498",
      amount_cents: 2498,
      currency: "EUR",
      status: "WAITING",
    })
    expect(platform.amount).toBe("2498") // 19.99 item + 4.99 shipping
    expect(platform.order_id.length).toBeLessThanOrEqual(35)
    expect(Date.parse(session.data.refpay.expires_at) - Date.parse(session.data.refpay.created_at)).toBe(7 * 86_400_000)
    // The cart's one address (LISBON_ADDRESS), in the platform's shape, as billing and as shipping address.
    const lisbon = { street: "Rua Augusta 100", complement: "2.º Esq.", city: "Lisboa", state: "Lisboa", country: "PT", postal_code: "1100-053" }
    expect(platform.customer).toEqual({
      email: "maria.silva@example.com",
      name: "Maria Silva",
      phone_number: "+351912345678",
      billing_address: lisbon,
      shippings: { address: lisbon },
    })
  })

  it("adds no float drift: three 0.10 EUR items and 4.99 shipping reach the platform as 529 cents", async () => {
    const { completion } = await placeRefpayOrder(api, store(), { items: [{ variant_id: store().cheapVariantId, quantity: 3 }] })
    const order = await adminOrder(completion.order.id)
    expect(refpaySession(order).data.refpay.amount_cents).toBe(529)
    expect((await platformPayments())[0].amount).toBe("529")
  })

  it("marks the order paid once the customer pays, through the re-authorisation Medusa runs on a webhook", async () => {
    const { completion } = await placeRefpayOrder(api, store())
    let order = await adminOrder(completion.order.id)
    const result = await payAndProcess(order)
    expect(result).toEqual({ status: 200, body: { received: true, processed: true } })

    order = await adminOrder(completion.order.id)
    expect(order.payment_status).toBe("captured")
    expect(order.payment_collections[0].status).toBe("completed")
    const payment = order.payment_collections[0].payments[0]
    expect(payment.provider_id).toBe("pp_refpay_refpay")
    expect(Number(payment.amount)).toBe(24.98)
    expect(payment.data.refpay.status).toBe("APPROVED")
  })

  it("ignores a webhook without the shared secret, and one whose platform status is still WAITING", async () => {
    const { completion } = await placeRefpayOrder(api, store())
    const order = await adminOrder(completion.order.id)
    const refpay = refpaySession(order).data.refpay
    const forged = { event_type: "APPROVED_TRANSACTIONS", payment_id: refpay.payment_id, order_id: refpay.order_id, status: "APPROVED" }

    const deliver = (headers: Record<string, string>) => handleRefpayWebhook(ctx.getContainer(), { body: forged, headers, door: "refpay" })
    expect((await deliver({ "x-refpay-webhook-secret": "wrong" })).status).toBe(401)
    // Right secret, but the customer has not paid: the status read says WAITING, whatever the event claims.
    expect(await deliver(AUTH)).toEqual({ status: 200, body: { received: true, processed: true } })
    expect((await adminOrder(completion.order.id)).payment_status).toBe("awaiting")
    // Medusa's core webhook subscriber is never the one that acts (it would run outside the session lock and the
    // amount check): the provider tells it there is nothing to do, and the plugin's own subscriber syncs instead.
    expect(await processWebhookLikeCore(ctx.getContainer(), forged, AUTH)).toEqual({ action: "not_supported" })
    expect((await adminOrder(completion.order.id)).payment_status).toBe("awaiting")
  })

  it("refuses a manual capture while the reference is WAITING, with a message a shop owner understands", async () => {
    const { completion } = await placeRefpayOrder(api, store())
    const session = refpaySession(await adminOrder(completion.order.id))
    await expect(refpayProviderFor(ctx.getContainer(), "pp_refpay_refpay").capturePayment({ data: session.data })).rejects.toThrow(
      /not paid reference \d{9} \(entity \d{5}\)\. It is captured automatically/
    )
  })

  it("cancels the reference on the platform when the order is cancelled while WAITING", async () => {
    const { completion } = await placeRefpayOrder(api, store())
    const paymentId = refpaySession(await adminOrder(completion.order.id)).data.refpay.payment_id
    await api.post(`/admin/orders/${completion.order.id}/cancel`, {}, adminHeaders())
    await ctx.utils.waitWorkflowExecutions()

    await waitFor(async () => (await control("GET", `/payments/${paymentId}`)).status === "CANCELLED")
    const order = await adminOrder(completion.order.id)
    expect(order.status).toBe("canceled")
    expect(refpaySession(order)).toMatchObject({ status: "canceled", data: { refpay: { status: "CANCELLED" } } })
  })

  it("refunds a paid order in full and in part through the platform's cancel/refund call, in cents", async () => {
    const { completion } = await placeRefpayOrder(api, store())
    await payAndProcess(await adminOrder(completion.order.id))
    const payment = (await adminOrder(completion.order.id)).payment_collections[0].payments[0]

    await api.post(`/admin/payments/${payment.id}/refund`, { amount: 10.01 }, adminHeaders())
    let platform = await control("GET", `/payments/${payment.data.refpay.payment_id}`)
    expect(platform.refunded_amount).toBe("1001")

    await api.post(`/admin/payments/${payment.id}/refund`, { amount: 14.97 }, adminHeaders())
    platform = await control("GET", `/payments/${payment.data.refpay.payment_id}`)
    expect(platform.refunded_amount).toBe("2498")
    expect(platform.records.filter((r: any) => r.type === "REFUND").map((r: any) => r.amount)).toEqual(["1001", "1497"])

    const order = await adminOrder(completion.order.id)
    expect(order.payment_status).toBe("refunded")
  })

  it("creates exactly one reference when the same cart is completed twice", async () => {
    const cart = await prepareCart(api, store())
    await selectRefpay(api, store(), cart)
    const first = await completeCart(api, store(), cart.id)
    const second = await completeCart(api, store(), cart.id)
    expect(second.order.id).toBe(first.order.id)
    expect(await platformPayments()).toHaveLength(1)
  })

  it("creates exactly one reference when completion is retried after a platform 500 that hid a created payment", async () => {
    const cart = await prepareCart(api, store())
    await selectRefpay(api, store(), cart)
    // The platform creates the payment, then fails the answer: both attempts the client makes see a 500.
    await control("POST", "/faults", { path: "/dpm/payments-gwproxy/v2/payments", method: "POST", count: 2, status: 500, when: "after" })
    // Medusa answers a payment authorisation error with the cart and the error, for the storefront to show.
    const failed = await completeCart(api, store(), cart.id)
    expect(failed.type).toBe("cart")
    expect(failed.error.message).toMatch(/REFPAY is unavailable right now/)
    const orders = await api.get(`/admin/orders?fields=id`, adminHeaders())
    expect(orders.data.orders).toHaveLength(0)

    const retried = await completeCart(api, store(), cart.id)
    expect(retried.type).toBe("order")
    const payments = await platformPayments()
    expect(payments).toHaveLength(1)
    const session = refpaySession(await adminOrder(retried.order.id))
    expect(session.data.refpay.reference).toBe(payments[0].additional_data.reference)
  })

  it("refuses a REFPAY session in a USD region with a clear message", async () => {
    const cart = await prepareCart(api, store(), { regionId: store().usdRegion.id, address: { ...LISBON_ADDRESS, country_code: "us" } })
    const error = await selectRefpay(api, store(), cart).catch((e: any) => e.response)
    expect(error.status).toBe(400)
    expect(error.data.message).toMatch(/REFPAY accepts payments in euros only; this cart is in USD/)
    expect(await platformPayments()).toHaveLength(0)
  })

  it("refuses to complete a REFPAY cart with a non-Portuguese address before any order or reference exists", async () => {
    const spanish = { ...LISBON_ADDRESS, country_code: "es", city: "Madrid", postal_code: "28001" }
    const cart = await prepareCart(api, store(), { billingAddress: spanish })
    await selectRefpay(api, store(), cart)
    const error = await api.post(`/store/carts/${cart.id}/complete`, {}, ctx.storeHeaders()).catch((e: any) => e.response)
    expect(error.status).toBe(400)
    expect(JSON.stringify(error.data)).toMatch(/REFPAY is available in Portugal only: the billing address is in ES/)
    expect(await platformPayments()).toHaveLength(0)
    expect((await api.get(`/admin/orders?fields=id`, adminHeaders())).data.orders).toHaveLength(0)
  })

  it("ignores identifiers and amounts a storefront tries to put in the session data", async () => {
    const cart = await prepareCart(api, store())
    const { data } = await api.post("/store/payment-collections", { cart_id: cart.id }, ctx.storeHeaders())
    await api.post(
      `/store/payment-collections/${data.payment_collection.id}/payment-sessions`,
      { provider_id: "pp_refpay_refpay", data: { amount_cents: 1, generation: 7, refpay: { payment_id: "x".repeat(60) } } },
      ctx.storeHeaders()
    )
    const completion = await completeCart(api, store(), cart.id)
    const session = refpaySession(await adminOrder(completion.order.id))
    expect(session.data).toMatchObject({ amount_cents: 2498, generation: 0 })
    expect((await platformPayments())[0].amount).toBe("2498")
  })

  it.each([
    [401, "/dpm/payments-gwproxy/v2/payments", /REFPAY is unavailable right now; please try again or choose another payment method/],
    [403, "/dpm/payments-gwproxy/v2/payments", /REFPAY is unavailable right now; please try again or choose another payment method/],
    [500, "/dpm/payments-gwproxy/v2/payments", /unavailable right now/],
  ])("answers a platform %i with a clear error and leaves no order or reference behind", async (status, path, message) => {
    const cart = await prepareCart(api, store())
    await selectRefpay(api, store(), cart)
    await control("POST", "/faults", { path, count: 10, status })
    const failed = await completeCart(api, store(), cart.id)
    expect(failed.type).toBe("cart")
    expect(failed.error.message).toMatch(message)
    expect(JSON.stringify(failed)).not.toMatch(/sandbox-client-secret|sandbox-client-id/)
    expect(await platformPayments()).toHaveLength(0)
    expect((await api.get(`/admin/orders?fields=id`, adminHeaders())).data.orders).toHaveLength(0)

    await control("DELETE", "/faults")
    expect((await completeCart(api, store(), cart.id)).type).toBe("order")
    expect(await platformPayments()).toHaveLength(1)
  })

  it("cancels a replaced reference when the amount changes (updatePayment), and the next authorisation gets a new one", async () => {
    const provider = refpayProviderFor(ctx.getContainer(), "pp_refpay_refpay")
    const initiated = await provider.initiatePayment({ amount: 10, currency_code: "eur", data: { session_id: "payses_01JZ8X4K7M2N3P4Q5R6S7T8V9W" } })
    const first = await provider.authorizePayment({ data: initiated.data })
    const updated = await provider.updatePayment({ amount: 12.5, currency_code: "eur", data: first.data })
    expect(updated).toMatchObject({ status: "pending", data: { amount_cents: 1250, generation: 1, refpay: null } })
    const second = await provider.authorizePayment({ data: updated.data })
    const [old, fresh] = await platformPayments()
    expect(old).toMatchObject({ status: "CANCELLED", amount: "1000" })
    expect(fresh).toMatchObject({ status: "WAITING", amount: "1250", payment_id: (second.data as any).refpay.payment_id })
    expect(fresh.order_id).toBe("ps_01JZ8X4K7M2N3P4Q5R6S7T8V9W-1")
  })
})

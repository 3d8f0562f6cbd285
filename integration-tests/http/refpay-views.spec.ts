import type { INotificationModuleService, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { TestEventUtils } from "@medusajs/test-utils"
import { completeCart, placeRefpayOrder, prepareCart } from "../fixtures/checkout"
import { refpayIntegrationSuite, TEST_WEBHOOK_SECRET } from "../harness"

jest.setTimeout(120 * 1000)

const NBSP = /\u00a0/g
const SECRETS = /sandbox-client-secret|sandbox-client-id|sandbox-limited-client|fake-webhook-secret-for-tests/

refpayIntegrationSuite("REFPAY payment views: thank-you page route, admin routes and check-now sync", (ctx) => {
  const { api, adminHeaders, control, store } = ctx
  const fail = (error: any) => error.response ?? Promise.reject(error)

  async function placeOrder(): Promise<string> {
    const { completion } = await placeRefpayOrder(api, store())
    expect(completion.type).toBe("order")
    return completion.order.id
  }

  /** An order paid with Medusa's system provider: not REFPAY's business. */
  async function placeSystemOrder(): Promise<string> {
    const cart = await prepareCart(api, store())
    const { data } = await api.post("/store/payment-collections", { cart_id: cart.id }, ctx.storeHeaders())
    await api.post(
      `/store/payment-collections/${data.payment_collection.id}/payment-sessions`,
      { provider_id: "pp_system_default" },
      ctx.storeHeaders()
    )
    const completion = await completeCart(api, store(), cart.id)
    expect(completion.type).toBe("order")
    return completion.order.id
  }

  const storeView = (orderId: string) => api.get(`/store/refpay/orders/${orderId}`, ctx.storeHeaders())
  const adminView = (orderId: string) => api.get(`/admin/refpay/orders/${orderId}`, adminHeaders())
  const sync = (orderId: string) => api.post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders())

  it("refuses the store route without a publishable key, as Medusa does for every /store route", async () => {
    const orderId = await placeOrder()
    const missing = await api.get(`/store/refpay/orders/${orderId}`).catch(fail)
    expect(missing.status).toBe(400)
    expect(missing.data.message).toMatch(/Publishable API key required/)
    const wrong = await api.get(`/store/refpay/orders/${orderId}`, { headers: { "x-publishable-api-key": "pk_wrong" } }).catch(fail)
    expect(wrong.status).toBe(400)
    expect(JSON.stringify(wrong.data)).not.toMatch(/"entity"/)
  })

  it("shows the thank-you page the entity and reference exactly as the sandbox holds them, the amount and the expiry", async () => {
    await control("POST", "/next-reference", { entity: "01234", reference: "000123450" })
    const orderId = await placeOrder()
    const [platform] = (await control("GET", "/payments")).payments

    const { status, data } = await storeView(orderId)
    expect(status).toBe(200)
    expect(data.refpay).toMatchObject({
      order_id: orderId,
      payment_id: platform.payment_id,
      entity: platform.additional_data.entity,
      reference: platform.additional_data.reference,
      amount_cents: 2498,
      currency: "EUR",
      status: "awaiting",
      platform_status: "WAITING",
      expired: false,
      paid_after_cancellation: false,
      paid_after_cancellation_at: null,
      do_not_ship: true,
    })
    expect(data.refpay.entity).toBe("01234")
    expect(data.refpay.reference).toBe("000123450")
    expect(data.refpay.amount_display.replace(NBSP, " ")).toBe("24,98 €")
    expect(data.refpay.payment_session_id).toMatch(/^payses_/)
    expect(Date.parse(data.refpay.expires_at) - Date.now()).toBeGreaterThan(6 * 86_400_000)
    expect(Number.isNaN(Date.parse(data.refpay.checked_at))).toBe(false)
  })

  it("moves from awaiting to paid when the customer pays and the admin checks the status now", async () => {
    const orderId = await placeOrder()
    const before = (await adminView(orderId)).data.refpay
    expect(before).toMatchObject({ status: "awaiting", do_not_ship: true })

    // Nothing changes until someone asks the platform.
    await control("POST", `/payments/${before.payment_id}/pay`)
    expect((await adminView(orderId)).data.refpay.status).toBe("awaiting")

    const synced = await sync(orderId)
    expect(synced.status).toBe(200)
    expect(synced.data.action).toBe("capture")
    expect(synced.data.refpay).toMatchObject({ status: "paid", platform_status: "APPROVED", do_not_ship: false })
    expect((await storeView(orderId)).data.refpay).toMatchObject({ status: "paid", do_not_ship: false, entity: before.entity })

    const { data } = await api.get(`/admin/orders/${orderId}?fields=+payment_status`, adminHeaders())
    expect(data.order.payment_status).toBe("captured")

    // Checking again changes nothing.
    const again = await sync(orderId)
    expect(again.data).toMatchObject({ action: "none", refpay: { status: "paid" } })
  })

  it("records the check and stays awaiting when the customer has not paid yet", async () => {
    const orderId = await placeOrder()
    const synced = await sync(orderId)
    expect(synced.data).toMatchObject({ action: "record_check", refpay: { status: "awaiting", platform_status: "WAITING" } })
  })

  it("shows a cancelled order as cancelled, never shippable", async () => {
    const orderId = await placeOrder()
    await api.post(`/admin/orders/${orderId}/cancel`, {}, adminHeaders())
    await ctx.utils.waitWorkflowExecutions()
    expect((await adminView(orderId)).data.refpay).toMatchObject({ status: "cancelled", expired: false, do_not_ship: true })
  })

  it("answers the admin a clear 422 when the platform cannot be reached, and leaves the payment as it was", async () => {
    const orderId = await placeOrder()
    await control("POST", "/faults", { path: "/dpm/hub-payment-info", count: 10, status: 500 })
    const failed = await sync(orderId).catch(fail)
    expect(failed.status).toBe(422)
    expect(failed.data.message).toMatch(/REFPAY is unavailable right now/)
    expect(JSON.stringify(failed.data)).not.toMatch(SECRETS)
    await control("DELETE", "/faults")
    expect((await adminView(orderId)).data.refpay.status).toBe("awaiting")
  })

  it("requires admin authentication on the admin view and on check-now", async () => {
    const orderId = await placeOrder()
    expect((await api.get(`/admin/refpay/orders/${orderId}`).catch(fail)).status).toBe(401)
    expect((await api.post(`/admin/refpay/orders/${orderId}/sync`, {}).catch(fail)).status).toBe(401)
    const bogus = { headers: { authorization: "Bearer not-a-token" } }
    expect((await api.get(`/admin/refpay/orders/${orderId}`, bogus).catch(fail)).status).toBe(401)
    // The publishable key is not an admin credential.
    expect((await api.post(`/admin/refpay/orders/${orderId}/sync`, {}, ctx.storeHeaders()).catch(fail)).status).toBe(401)
  })

  it("answers 404 with a clear message for an unknown order and for an order not paid with REFPAY", async () => {
    const unknown = "order_01JZZZZZZZZZZZZZZZZZZZZZZZ"
    for (const route of [storeView, adminView, sync]) {
      const answer = await route(unknown).catch(fail)
      expect(answer.status).toBe(404)
      expect(answer.data.message).toBe(`Order ${unknown} was not found`)
    }

    const orderId = await placeSystemOrder()
    for (const route of [storeView, adminView, sync]) {
      const answer = await route(orderId).catch(fail)
      expect(answer.status).toBe(404)
      expect(answer.data.message).toMatch(/was not paid with REFPAY/)
    }
    expect((await control("GET", "/payments")).payments).toHaveLength(0)
  })

  it("puts no credential, secret or customer detail in any answer", async () => {
    const orderId = await placeOrder()
    const answers = [
      (await storeView(orderId)).data,
      (await adminView(orderId)).data,
      (await sync(orderId)).data,
      (await api.get(`/store/refpay/orders/order_unknown`, ctx.storeHeaders()).catch(fail)).data,
    ]
    const json = JSON.stringify(answers)
    expect(json).not.toMatch(SECRETS)
    expect(json).not.toContain(TEST_WEBHOOK_SECRET)
    expect(json).not.toMatch(/maria\.silva@example\.com|\+351912345678|Rua Augusta|access_token|Bearer/)
    expect(Object.keys(answers[0].refpay).sort()).toEqual(
      [
        "amount_cents",
        "amount_display",
        "checked_at",
        "created_at",
        "currency",
        "do_not_ship",
        "entity",
        "expired",
        "expires_at",
        "order_id",
        "paid_after_cancellation",
        "paid_after_cancellation_at",
        "payment_id",
        "payment_session_id",
        "platform_status",
        "reference",
        "status",
      ].sort()
    )
  })

  it("places the order even though no notification provider serves e-mail (Medusa records the e-mail as failed)", async () => {
    const logger = ctx.getContainer().resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    const errors = jest.spyOn(logger, "error")
    const warnings = jest.spyOn(logger, "warn")
    const eventBus = ctx.getContainer().resolve(Modules.EVENT_BUS)
    const placed = TestEventUtils.waitSubscribersExecution("order.placed", eventBus, { triggerCount: 2 })
    const orderId = await placeOrder()
    await placeOrder()
    await placed

    // The subscriber absorbed the failure (the event bus logs an error for a subscriber that throws), and warned
    // about the missing provider at most once for the two orders (earlier tests of this suite may have used it up).
    expect(errors.mock.calls.flat().join(" ")).not.toMatch(/order\.placed|payment instructions/)
    expect(warnings.mock.calls.flat().filter((m) => /payment instructions/.test(String(m))).length).toBeLessThanOrEqual(1)
    errors.mockRestore()
    warnings.mockRestore()

    const { data } = await api.get(`/admin/orders/${orderId}?fields=+payment_status`, adminHeaders())
    expect(data.order.payment_status).toBe("awaiting")
    expect((await storeView(orderId)).data.refpay.status).toBe("awaiting")

    // What Medusa 2.21.2 does without a provider for the channel: it keeps a record of the attempt, status "failure",
    // and throws "Could not find a notification provider for channel: email", which the subscriber logs and absorbs.
    const notifications = ctx.getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION)
    const [attempt] = await notifications.listNotifications({ resource_id: orderId }, { select: ["id", "template", "channel", "status", "provider_id"] as any })
    expect(attempt).toMatchObject({ template: "refpay-payment-instructions", channel: "email", status: "failure", provider_id: null })
  })
})

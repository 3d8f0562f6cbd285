import { FeatureFlag } from "@medusajs/framework/utils"
import { createAdminUser, loginAdmin } from "../fixtures/admin"
import { refpayAdminApi } from "../fixtures/refpay-admin"
import { payments, refpayOrders, session } from "../fixtures/refpay-orders"
import { waitFor } from "../fixtures/wait"
import { refpayIntegrationSuite, TEST_WEBHOOK_SECRET, type RefpaySuiteContext } from "../harness"
import { checkMedusaReliances, MEDUSA_RELIANCES } from "../../src/medusa-compat/contracts"

jest.setTimeout(180 * 1000)

// RBAC on, before anything reads it. Medusa 2.21.2 registers its own feature flags (rbac among them, from
// MEDUSA_FF_RBAC) only after medusa-config has been evaluated, and `defineConfig` decides then whether to load the
// RBAC module (`disable: !FeatureFlag.isFeatureEnabled("rbac")`); @medusajs/test-utils evaluates the config after
// registering only the project's own flags. So the flag is set on Medusa's flag router here as well as in the env.
process.env.MEDUSA_FF_RBAC = "true"
FeatureFlag.setFlag("rbac", true)

const SUPER_ADMIN = { email: "owner@loja.test", password: "fake-owner-password" }
const VIEWER = { email: "viewer@loja.test", password: "fake-viewer-password" }

type Headers = { headers: { authorization: string } }

refpayIntegrationSuite(
  "REFPAY admin routes under Medusa's RBAC: a read-only role sees the page but cannot press its buttons",
  (ctx) => {
    const { api, control } = ctx
    let owner: Headers | undefined
    let viewer: Headers | undefined
    // With RBAC on, a user without roles is refused every route that declares policies (Medusa's own too): the
    // suites' helpers act as the super admin here.
    const asOwner: RefpaySuiteContext = { ...ctx, adminHeaders: () => owner! }
    const orders = refpayOrders(asOwner)
    const { placeOrder, waitForOrder } = orders
    const admin = refpayAdminApi(asOwner)
    const answer = (error: any) => error.response ?? Promise.reject(error)
    const call = (method: "GET" | "POST", path: string, headers: Headers) =>
      (method === "GET" ? api.get(path, headers) : api.post(path, {}, headers)).catch(answer)

    beforeAll(async () => {
      const container = ctx.getContainer()
      await createAdminUser(container, SUPER_ADMIN.email, SUPER_ADMIN.password, ["role_super_admin"])
      owner = await loginAdmin(api, SUPER_ADMIN.email, SUPER_ADMIN.password)

      // A read-only role made through Medusa's own RBAC admin API: every registered "read" policy.
      const { data: policies } = await api.get("/admin/rbac/policies?operation=read&limit=1000&fields=id,key", owner)
      expect(policies.policies.length).toBeGreaterThan(10)
      const { data: created } = await api.post(
        "/admin/rbac/roles",
        {
          name: "Read only",
          description: "Sees everything, changes nothing",
          policy_ids: policies.policies.map((p: any) => p.id),
        },
        owner
      )
      const user = await createAdminUser(container, VIEWER.email, VIEWER.password)
      await api.post(`/admin/rbac/roles/${created.role.id}/users`, { users: [user.id] }, owner)
      viewer = await loginAdmin(api, VIEWER.email, VIEWER.password)
    })

    /** An order paid after it was cancelled, captured by "Check now": what the attention list's "Refund" acts on. */
    async function latePayment() {
      const late = await placeOrder()
      await api.post(`/admin/orders/${late.orderId}/cancel`, {}, owner!)
      await waitFor(
        async () => (await control("GET", `/payments/${late.refpay.payment_id}`)).status === "CANCELLED",
        20_000,
        "reference cancelled"
      )
      await waitForOrder(late.orderId, (o) => session(o).status === "canceled")
      await control("POST", `/payments/${late.refpay.payment_id}/pay`, { force: true })
      const checked = await call("POST", `/admin/refpay/orders/${late.orderId}/sync`, owner!)
      expect(checked.data.action).toBe("capture_late")
      const { data } = await admin.attentionList("paid_after_cancellation")
      expect(data.count).toBe(1)
      return { ...late, sessionId: data.payments[0].payment_session_id as string }
    }

    it("finds every reliance on Medusa (src/medusa-compat/contracts.ts) holding on the Medusa this suite runs", async () => {
      expect(await checkMedusaReliances(ctx.getContainer())).toEqual(
        MEDUSA_RELIANCES.map((reliance) => ({ name: reliance.name, ok: true }))
      )
    })

    it("lets the read-only role read every REFPAY page route", async () => {
      const { orderId, refpay } = await placeOrder()
      const reference = (await call("GET", `/admin/refpay/orders/${orderId}`, owner!)).data.refpay.reference
      const reads = [
        "/admin/refpay/settings",
        "/admin/refpay/webhooks",
        "/admin/refpay/webhooks/deliveries",
        `/admin/refpay/webhooks/test-event/${refpay.payment_id}`,
        "/admin/refpay/attention",
        "/admin/refpay/attention/expiring",
        `/admin/refpay/search?reference=${reference}`,
        `/admin/refpay/orders/${orderId}`,
        `/admin/refpay/orders/${orderId}/payment-requests`,
      ]
      const statuses: Record<string, number> = {}
      for (const path of reads) statuses[path] = (await call("GET", path, viewer!)).status
      expect(statuses).toEqual(Object.fromEntries(reads.map((path) => [path, 200])))
    })

    it("refuses the read-only role every button (renew, check now, late-payment refund, connection test, test event) and changes nothing", async () => {
      const late = await latePayment()
      const { orderId } = await placeOrder()
      const buttons = [
        `/admin/refpay/orders/${orderId}/renew`,
        `/admin/refpay/orders/${orderId}/sync`,
        `/admin/refpay/orders/${orderId}/payment-requests`,
        `/admin/refpay/late-payments/${late.sessionId}/refund`,
        "/admin/refpay/connection-test",
        "/admin/refpay/webhooks/test-event",
      ]
      const paymentsBefore = (await control("GET", "/payments")).payments.length
      const refused: Record<string, { status: number; message?: string }> = {}
      for (const path of buttons) {
        const { status, data } = await call("POST", path, viewer!)
        refused[path] = { status, message: data?.message }
      }
      expect(refused).toEqual(
        Object.fromEntries(
          buttons.map((path) => [path, { status: 403, message: expect.stringMatching(/^Insufficient permissions/) }])
        )
      )
      // Nothing reached the platform: no refund, no new payment (renewal or test event).
      expect((await control("GET", `/payments/${late.refpay.payment_id}`)).refunded_amount).toBe("0")
      expect((await control("GET", "/payments")).payments.length).toBe(paymentsBefore)
    })

    it("refuses the read-only role Medusa's own refund and cancellation of REFPAY orders, which the plugin's middlewares carry out", async () => {
      // A paid open order, and a payment received after its order was cancelled: both refunded through Medusa's
      // route by the plugin's workflows (refpay-locked-refund, refpay-refund-cancelled-order-payment).
      const paid = await placeOrder()
      await control("POST", `/payments/${paid.refpay.payment_id}/pay`, {})
      expect((await call("POST", `/admin/refpay/orders/${paid.orderId}/sync`, owner!)).data.action).toBe("capture")
      const late = await latePayment()
      const waiting = await placeOrder()
      const paymentOf = async (orderId: string) => payments(await orders.adminOrder(orderId))[0].id as string

      for (const orderId of [paid.orderId, late.orderId]) {
        const refund = await api
          .post(`/admin/payments/${await paymentOf(orderId)}/refund`, { amount: 1 }, viewer!)
          .catch(answer)
        expect(refund.status).toBe(403)
      }
      const cancel = await call("POST", `/admin/orders/${waiting.orderId}/cancel`, viewer!)
      expect(cancel.status).toBe(403)

      for (const { refpay } of [paid, late])
        expect((await control("GET", `/payments/${refpay.payment_id}`)).refunded_amount).toBe("0")
      expect((await orders.adminOrder(waiting.orderId)).status).not.toBe("canceled")
      expect((await control("GET", `/payments/${waiting.refpay.payment_id}`)).status).toBe("WAITING")
    })

    it("lets the super admin press every button", async () => {
      const late = await latePayment()
      const { orderId } = await placeOrder()

      const refund = await call("POST", `/admin/refpay/late-payments/${late.sessionId}/refund`, owner!)
      expect(refund.status).toBe(200)
      expect(refund.data.refund).toMatchObject({ order_id: late.orderId, refunded_cents: 2498 })
      expect((await control("GET", `/payments/${late.refpay.payment_id}`)).refunded_amount).toBe("2498")

      const sync = await call("POST", `/admin/refpay/orders/${orderId}/sync`, owner!)
      expect(sync.status).toBe(200)
      // Past the permission check, the route's own rule answers: this reference can still be paid.
      const renew = await call("POST", `/admin/refpay/orders/${orderId}/renew`, owner!)
      expect(renew.status).toBe(400)
      expect(renew.data.message).toMatch(/can still be paid/)
      const connection = await call("POST", "/admin/refpay/connection-test", owner!)
      expect(connection.status).toBe(200)
      expect(connection.data.connection).toBeDefined()
      await control("POST", "/webhooks/config", {
        url: `${(api as any).defaults.baseURL}/hooks/refpay`,
        secret: TEST_WEBHOOK_SECRET,
      })
      const testEvent = await call("POST", "/admin/refpay/webhooks/test-event", owner!)
      expect(testEvent.status).toBe(200)
      expect(testEvent.data.test_event.sent).toBe(true)
    })
  },
  { env: { MEDUSA_FF_RBAC: "true" } }
)

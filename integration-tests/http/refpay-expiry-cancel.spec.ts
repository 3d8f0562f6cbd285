import { refpayProviderFor } from "../../src/workflows/refpay-sync/provider"
import { expirySuite } from "../fixtures/expiry"
import { session } from "../fixtures/refpay-orders"
import { waitFor } from "../fixtures/wait"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(180 * 1000)

refpayIntegrationSuite(
  "REFPAY expiry policy cancel, and the admin's 'Issue a new reference'",
  (ctx) => {
    const { api, adminHeaders, control } = ctx
    const { orders, sessions, sent, storeView, expireOnPlatform } = expirySuite(ctx)

    it("cancels the reference and the order at expiry and e-mails the customer that the order was cancelled unpaid", async () => {
      const { orderId, refpay } = await orders.placeOrder()
      const order = await expireOnPlatform(orderId, 2)
      expect(order.status).toBe("canceled")
      expect(sessions(order)).toHaveLength(1)
      expect((await control("GET", `/payments/${refpay.payment_id}`)).status).toBe("CANCELLED")
      await waitFor(async () => (await sent(orderId, "refpay-reference-expired")).length === 1, 10_000, "cancellation e-mail")
      expect((await sent(orderId, "refpay-reference-expired"))[0].data).toMatchObject({ outcome: "cancelled" })
    })

    it("issues a new reference from the admin for an open order whose reference expired, the same way as a renewal", async () => {
      const settings = refpayProviderFor(ctx.getContainer(), "pp_refpay_refpay").settings as { cancelExpiredOrders: boolean }
      settings.cancelExpiredOrders = false // this shop cancels nothing by itself
      try {
        const { orderId, refpay } = await orders.placeOrder()
        await control("POST", "/clock", { advance_days: 8 })
        await orders.waitForOrder(orderId, (o) => session(o).status === "canceled", 30_000)
        expect((await orders.adminOrder(orderId)).status).not.toBe("canceled")

        const answer = await api.post(`/admin/refpay/orders/${orderId}/renew`, {}, adminHeaders())
        expect(answer.status).toBe(200)
        expect(answer.data.refpay).toMatchObject({ status: "awaiting", expired: false })
        expect(answer.data.refpay.payment_id).not.toBe(refpay.payment_id)
        expect(answer.data.refpay.history.map((h: any) => h.status)).toEqual(["cancelled", "awaiting"])
        expect((await storeView(orderId)).refpay.reference).toBe(answer.data.refpay.reference)
        await waitFor(async () => (await sent(orderId, "refpay-reference-expired")).length === 1, 10_000, "renewal e-mail")
        expect((await sent(orderId, "refpay-reference-expired"))[0].data).toMatchObject({ outcome: "renewed", reference: answer.data.refpay.reference })
      } finally {
        settings.cancelExpiredOrders = true
      }
    })
  },
  { env: { REFPAY_TEST_NOTIFICATIONS: "local", REFPAY_EXPIRY_POLICY: "cancel" } }
)

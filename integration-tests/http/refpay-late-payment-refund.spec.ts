import type { IEventBusModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { PAID_AFTER_CANCELLATION_EVENT } from "../../src/workflows/refpay-sync/sync-payment"
import { placeRefpayOrder } from "../fixtures/checkout"
import { waitFor } from "../fixtures/wait"
import { refpayIntegrationSuite, TEST_WEBHOOK_SECRET } from "../harness"

jest.setTimeout(120 * 1000)

refpayIntegrationSuite(
  "REFPAY payment after cancellation, with automatic refunds on",
  (ctx) => {
    const { api, adminHeaders, control, store } = ctx

    it("records the late payment, emits an event with its details and refunds it in full on the platform", async () => {
      await control("POST", "/webhooks/config", { url: `${(api as any).defaults.baseURL}/hooks/refpay`, secret: TEST_WEBHOOK_SECRET })
      const events: any[] = []
      ctx.getContainer().resolve<IEventBusModuleService>(Modules.EVENT_BUS).subscribe(PAID_AFTER_CANCELLATION_EVENT, async (event: any) => {
        events.push(event.data)
      })

      const { completion } = await placeRefpayOrder(api, store())
      const orderId = completion.order.id
      const fields = "*payment_collections,*payment_collections.payment_sessions,*payment_collections.payments,*payment_collections.payments.refunds"
      const load = async () => (await api.get(`/admin/orders/${orderId}?fields=${fields}`, adminHeaders())).data.order
      const paymentId = (await load()).payment_collections[0].payment_sessions[0].data.refpay.payment_id

      await api.post(`/admin/orders/${orderId}/cancel`, {}, adminHeaders())
      await waitFor(async () => (await control("GET", `/payments/${paymentId}`)).status === "CANCELLED")
      await control("POST", `/payments/${paymentId}/pay`, { force: true })

      await waitFor(async () => (await control("GET", `/payments/${paymentId}`)).refunded_amount === "2498")
      await waitFor(async () => events.length > 0)
      expect(events[0]).toMatchObject({ order_id: orderId, refpay_payment_id: paymentId, amount_cents: 2498 })
      const order = await load()
      const payment = order.payment_collections[0].payments[0]
      expect(payment.refunds.map((r: any) => Number(r.amount))).toEqual([24.98])
      expect(order.payment_collections[0].payment_sessions[0].data.paid_after_cancellation_at).toBeTruthy()
    })
  },
  { env: { REFPAY_AUTO_REFUND_LATE_PAYMENTS: "true" } }
)

import type { INotificationModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { TestEventUtils } from "@medusajs/test-utils"
import { completeCart, placeRefpayOrder, prepareCart } from "../fixtures/checkout"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(120 * 1000)

// Needs the test app's medusa-config.ts to register `@medusajs/medusa/notification-local` for the "email" channel
// when REFPAY_TEST_NOTIFICATIONS=local (without it, the first test fails on status "failure": no provider).
refpayIntegrationSuite(
  "REFPAY payment instructions e-mail on order.placed, through Medusa's Notification module",
  (ctx) => {
    const { api, adminHeaders, control, store } = ctx
    const notifications = () => ctx.getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION)
    const placedSubscribers = () => TestEventUtils.waitSubscribersExecution("order.placed", ctx.getContainer().resolve(Modules.EVENT_BUS))

    it("e-mails the customer the entity, reference, amount and deadline when a REFPAY order is placed", async () => {
      await control("POST", "/next-reference", { entity: "01234", reference: "000123450" })
      const placed = placedSubscribers()
      const { completion } = await placeRefpayOrder(api, store())
      await placed
      const order = completion.order
      const view = (await api.get(`/admin/refpay/orders/${order.id}`, adminHeaders())).data.refpay

      const sent = await notifications().listNotifications({ resource_id: order.id })
      expect(sent).toHaveLength(1)
      expect(sent[0]).toMatchObject({
        to: "maria.silva@example.com",
        channel: "email",
        template: "refpay-payment-instructions",
        trigger_type: "order.placed",
        resource_type: "order",
        idempotency_key: `refpay-instructions-${order.id}`,
        provider_id: "local",
      })
      const record = await notifications().retrieveNotification(sent[0].id, { select: ["id", "status"] as any })
      expect((record as unknown as { status: string }).status).toBe("success")
      expect(sent[0].data).toEqual({
        order_id: order.id,
        display_id: order.display_id,
        entity: "01234",
        reference: "000123450",
        amount_display: expect.stringMatching(/^24,98\s€$/),
        amount_cents: 2498,
        expires_at: view.expires_at,
      })
      expect(JSON.stringify(sent[0].data)).not.toMatch(/secret|client-id/)
    })

    it("sends it once per order, however often order.placed is emitted", async () => {
      const placed = placedSubscribers()
      const { completion } = await placeRefpayOrder(api, store())
      await placed
      const again = placedSubscribers()
      await ctx.getContainer().resolve(Modules.EVENT_BUS).emit({ name: "order.placed", data: { id: completion.order.id } })
      await again
      expect(await notifications().listNotifications({ resource_id: completion.order.id })).toHaveLength(1)
    })

    it("sends nothing for an order paid with another provider", async () => {
      const cart = await prepareCart(api, store())
      const { data } = await api.post("/store/payment-collections", { cart_id: cart.id }, ctx.storeHeaders())
      await api.post(`/store/payment-collections/${data.payment_collection.id}/payment-sessions`, { provider_id: "pp_system_default" }, ctx.storeHeaders())
      const placed = placedSubscribers()
      const completion = await completeCart(api, store(), cart.id)
      expect(completion.type).toBe("order")
      await placed
      expect(await notifications().listNotifications({ resource_id: completion.order.id })).toHaveLength(0)
    })
  },
  { env: { REFPAY_TEST_NOTIFICATIONS: "local" } }
)

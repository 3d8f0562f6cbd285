import { pollRefpayPayments } from "../../src/workflows/refpay-sync/poll"
import { expirySuite } from "../fixtures/expiry"
import { captureCount } from "../fixtures/refpay-orders"
import { waitFor } from "../fixtures/wait"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(180 * 1000)

const DAY = 86_400_000
const HOUR = 3_600_000

refpayIntegrationSuite(
  "REFPAY expiry policy renew (default): reminders, new references, renewal limit, late payment on an old reference",
  (ctx) => {
    const { api, adminHeaders, control } = ctx
    const { orders, container, sessions, sent, storeView, payOnPlatform, expireOnPlatform } = expirySuite(ctx)

    it("reminds once, a day before expiry (D+6), and never for a paid order", async () => {
      const waiting = await orders.placeOrder()
      const paid = await orders.placeOrder()
      await control("POST", `/payments/${paid.refpay.payment_id}/pay`)
      await orders.waitForOrder(paid.orderId, (o) => o.payment_status === "captured")

      const start = Date.now()
      await pollRefpayPayments(container(), new Date(start + 5 * DAY))
      expect(await sent(waiting.orderId, "refpay-payment-reminder")).toHaveLength(0)
      await pollRefpayPayments(container(), new Date(start + 6 * DAY + HOUR))
      await pollRefpayPayments(container(), new Date(start + 6 * DAY + 3 * HOUR))
      const reminders = await sent(waiting.orderId, "refpay-payment-reminder")
      expect(reminders).toHaveLength(1)
      expect(reminders[0].to).toBe("maria.silva@example.com")
      expect(reminders[0].data).toMatchObject({ reference: expect.stringMatching(/^\d{9}$/), amount_cents: 2498 })
      expect(await sent(paid.orderId, "refpay-payment-reminder")).toHaveLength(0)
    })

    it("renews an expired reference on the same order: old one cancelled and unpayable, new one e-mailed and shown", async () => {
      const { orderId, refpay } = await orders.placeOrder()
      const order = await expireOnPlatform(orderId, 2)
      expect(order.status).not.toBe("canceled")
      const [old, renewed] = [...sessions(order)].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
      expect(old).toMatchObject({ status: "canceled", data: { expired_at: expect.any(String), refpay: { status: "CANCELLED" } } })
      expect(renewed.status).toBe("pending_authorization")
      expect(renewed.data.refpay.reference).not.toBe(old.data.refpay.reference)
      expect(renewed.data.refpay.payment_id).not.toBe(refpay.payment_id)
      expect(renewed.data.amount_cents).toBe(2498)
      expect((await control("GET", `/payments/${refpay.payment_id}`)).status).toBe("CANCELLED")
      expect(await payOnPlatform(refpay.payment_id)).toBe(false)

      await waitFor(async () => (await sent(orderId, "refpay-reference-expired")).length === 1, 10_000, "renewal e-mail")
      const [email] = await sent(orderId, "refpay-reference-expired")
      expect(email.data).toMatchObject({
        outcome: "renewed",
        entity: renewed.data.refpay.entity,
        reference: renewed.data.refpay.reference,
        expired_reference: { reference: old.data.refpay.reference },
      })
      const store = await storeView(orderId)
      expect(store.refpay).toMatchObject({ entity: renewed.data.refpay.entity, reference: renewed.data.refpay.reference, status: "awaiting" })
      expect(store.previous_references).toEqual([expect.objectContaining({ reference: old.data.refpay.reference, expired: true })])

      // The new reference pays the order.
      await control("POST", `/payments/${renewed.data.refpay.payment_id}/pay`)
      const paid = await orders.waitForOrder(orderId, (o) => o.payment_status === "captured")
      expect(captureCount(paid)).toBe(1)
    })

    it("cancels the order once the renewal limit is reached, and tells the customer", async () => {
      const { orderId } = await orders.placeOrder()
      await expireOnPlatform(orderId, 2)
      const cancelled = await expireOnPlatform(orderId, 3)
      expect(cancelled.status).toBe("canceled")
      expect(sessions(cancelled)).toHaveLength(2)
      await waitFor(async () => (await sent(orderId, "refpay-reference-expired")).length === 2, 10_000, "cancellation e-mail")
      const outcomes = (await sent(orderId, "refpay-reference-expired")).map((n) => n.data.outcome).sort()
      expect(outcomes).toEqual(["cancelled", "renewed"])
    })

    it("records a late payment on the expired reference once, flags it and cancels the new reference (no double payment)", async () => {
      const { orderId, refpay } = await orders.placeOrder()
      const renewedOrder = await expireOnPlatform(orderId, 2)
      const renewed = sessions(renewedOrder).find((s: any) => s.status === "pending_authorization")

      await control("POST", `/payments/${refpay.payment_id}/pay`, { force: true }) // a late bank settlement
      const order = await orders.waitForOrder(orderId, (o) => captureCount(o) === 1 && sessions(o).every((s: any) => s.status !== "pending_authorization"))
      const old = sessions(order).find((s: any) => s.id !== renewed.id)
      expect(old.data.paid_after_cancellation_at).toBeTruthy()
      expect((await control("GET", `/payments/${renewed.data.refpay.payment_id}`)).status).toBe("CANCELLED")
      expect(await payOnPlatform(renewed.data.refpay.payment_id)).toBe(false)
      await api.post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders())
      expect(captureCount(await orders.adminOrder(orderId))).toBe(1)
    })

    it("refuses 'Issue a new reference' while the current reference can still be paid", async () => {
      const { orderId } = await orders.placeOrder()
      const answer = await api.post(`/admin/refpay/orders/${orderId}/renew`, {}, adminHeaders()).catch((e: any) => e.response)
      expect(answer.status).toBe(400)
      expect(answer.data.message).toMatch(/can still be paid/)
    })
  },
  { env: { REFPAY_TEST_NOTIFICATIONS: "local", REFPAY_POLL_INTERVAL_MINUTES: "10" } }
)


import { randomUUID } from "node:crypto"
import { refpayProviderFor } from "../../src/workflows/refpay-sync/provider"
import { pollRefpayPayments } from "../../src/workflows/refpay-sync/poll"
import { captureCount, payments, refpayOrders, refundedTotal, session } from "../fixtures/refpay-orders"
import { waitFor } from "../fixtures/wait"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(180 * 1000)

const MINUTE = 60_000
const CANCEL_PATH = "/dpm/payments-gwproxy/v2/payments/cancel"

/**
 * Money at the edges (issue 18), each in a real Medusa app against the sandbox: refunds from two hands at once,
 * storefront-planted session data, a store request on a placed order's collection, refunds above what was paid.
 * Medusa's refunded total and the platform's must agree after every one of them.
 */
refpayIntegrationSuite("REFPAY money at the edges: overlapping refunds, planted data, swapped references, refund limits", (ctx) => {
  const { api, adminHeaders, storeHeaders, control } = ctx
  const { adminOrder, placeOrder, waitForOrder } = refpayOrders(ctx)
  const platform = (paymentId: string) => control("GET", `/payments/${paymentId}`)
  const refund = (paymentId: string, body: Record<string, unknown>) =>
    api.post(`/admin/payments/${paymentId}/refund`, body, adminHeaders()).catch((e: any) => e.response)
  const cancelCalls = async () => (await control("GET", `/requests?path=${CANCEL_PATH}`)).count as number

  /** A placed order whose customer paid, captured in Medusa by the admin's "Check status now" (no webhook timing involved). */
  async function paidOrder() {
    const placed = await placeOrder()
    await control("POST", `/payments/${placed.refpay.payment_id}/pay`)
    expect((await api.post(`/admin/refpay/orders/${placed.orderId}/sync`, {}, adminHeaders())).data.action).toBe("capture")
    const order = await waitForOrder(placed.orderId, (o) => captureCount(o) === 1 && o.payment_status === "captured")
    return { ...placed, paymentId: payments(order)[0].id as string }
  }

  describe("two refunds at once", () => {
    it("makes both on the platform when the second starts while the first's answer is still on its way", async () => {
      const paid = await paidOrder()
      // The platform makes the first refund at once and answers it 1.5 s later.
      await control("POST", "/faults", { path: CANCEL_PATH, method: "POST", count: 1, delay_ms: 1500, when: "after" })
      const first = refund(paid.paymentId, { amount: 10 })
      await waitFor(async () => (await platform(paid.refpay.payment_id)).refunded_amount === "1000", 10_000, "the first refund made")
      const second = refund(paid.paymentId, { amount: 10 })
      const answers = await Promise.all([first, second])

      expect(answers.map((a) => a.status)).toEqual([200, 200])
      expect((await platform(paid.refpay.payment_id)).refunded_amount).toBe("2000")
      expect(refundedTotal(await adminOrder(paid.orderId))).toBe(2000)
    })

    it("agrees with the platform when an order cancellation and a manual refund overlap", async () => {
      const paid = await paidOrder()
      await control("POST", "/faults", { path: CANCEL_PATH, method: "POST", count: 1, delay_ms: 1500, when: "after" })
      const manual = refund(paid.paymentId, { amount: 5 })
      await waitFor(async () => (await platform(paid.refpay.payment_id)).refunded_amount === "500", 10_000, "the manual refund made")
      const cancel = api.post(`/admin/orders/${paid.orderId}/cancel`, {}, adminHeaders()).catch((e: any) => e.response)
      const [refunded, cancelled] = await Promise.all([manual, cancel])

      expect(refunded.status).toBe(200)
      expect(cancelled.status).toBe(200)
      expect((await platform(paid.refpay.payment_id)).refunded_amount).toBe("2498")
      const order = await adminOrder(paid.orderId)
      expect(order.status).toBe("canceled")
      expect(refundedTotal(order)).toBe(2498)
    })
  })

  describe("refund limits", () => {
    it("refuses a sub-cent amount before the platform is called", async () => {
      const paid = await paidOrder()
      const before = await cancelCalls()
      const answers = [await refund(paid.paymentId, { amount: 12.495 }), await refund(paid.paymentId, { amount: 12.495 })]

      expect(answers.map((a) => a.status)).toEqual([400, 400])
      expect(answers[0].data.message).toMatch(/cent/i)
      expect(await cancelCalls()).toBe(before)
      expect((await platform(paid.refpay.payment_id)).refunded_amount).toBe("0")
      expect(refundedTotal(await adminOrder(paid.orderId))).toBe(0)
    })

    it("refuses more than the platform can still refund, before calling it, and changes nothing", async () => {
      const paid = await paidOrder()
      // Refunded on the platform outside Medusa (its back office): 20.00 of 24.98. Until Medusa records it, a new
      // refund is refused (it could pay the customer twice for one intent); "Check status now" records it.
      await refpayProviderFor(ctx.getContainer(), "pp_refpay_refpay").client.cancelOrRefund({
        paymentId: paid.refpay.payment_id,
        amountCents: 2000,
        idempotencyKey: randomUUID(),
      })
      const unrecorded = await refund(paid.paymentId, { amount: 1 })
      expect(unrecorded.status).toBe(400)
      expect(unrecorded.data.message).toMatch(/not recorded yet/)
      expect((await api.post(`/admin/refpay/orders/${paid.orderId}/sync`, {}, adminHeaders())).data.action).toBe("record_refund")
      expect(refundedTotal(await adminOrder(paid.orderId))).toBe(2000)

      // Medusa tolerates a cent over what it captured (4.99 of the 4.98 left): the platform's books are the limit.
      const before = await cancelCalls()
      const over = await refund(paid.paymentId, { amount: 4.99 })
      expect(over.status).toBe(400)
      expect(over.data.message).toMatch(/at most 498 cents/)
      expect(await cancelCalls()).toBe(before)
      expect((await platform(paid.refpay.payment_id)).refunded_amount).toBe("2000")
      expect(refundedTotal(await adminOrder(paid.orderId))).toBe(2000)
    })
  })

  describe("what the storefront sends", () => {
    it("keeps a storefront's planted bookkeeping out of the session", async () => {
      const planted = {
        paid_after_cancellation_at: "2026-01-01T00:00:00.000Z",
        expired_at: "2026-01-01T00:00:00.000Z",
        refund_keys: ["00000000-0000-4000-8000-000000000000"],
        completion_started_at: "2026-01-01T00:00:00.000Z",
      }
      const placed = await placeOrder({ sessionData: planted })
      const data = session(await adminOrder(placed.orderId)).data
      expect(data.paid_after_cancellation_at ?? null).toBeNull()
      expect(data.expired_at ?? null).toBeNull()
      expect(data.refund_keys ?? null).toBeNull()
      // Written by the cart completion itself.
      expect(data.completion_started_at).toBeTruthy()
      expect(data.completion_started_at).not.toBe(planted.completion_started_at)

      // A payment after cancellation is still flagged and announced.
      await api.post(`/admin/orders/${placed.orderId}/cancel`, {}, adminHeaders())
      await waitFor(async () => (await platform(placed.refpay.payment_id)).status === "CANCELLED", 20_000, "the reference cancelled")
      await control("POST", `/payments/${placed.refpay.payment_id}/pay`, { force: true })
      expect((await api.post(`/admin/refpay/orders/${placed.orderId}/sync`, {}, adminHeaders())).data.action).toBe("capture_late")
      const late = session(await adminOrder(placed.orderId)).data.paid_after_cancellation_at
      expect(late).toBeTruthy()
      expect(late).not.toBe(planted.paid_after_cancellation_at)
    })
  })

  describe("a store request on a placed order's payment collection", () => {
    it("never cancels the live reference, and the poll job issues no reference nobody was told about", async () => {
      const placed = await placeOrder()
      const order = await adminOrder(placed.orderId)
      const collectionId = order.payment_collections[0].id as string
      const created = (await control("GET", "/payments")).payments?.length

      const swap = await api
        .post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: "pp_refpay_refpay" }, storeHeaders())
        .catch((e: any) => e.response)
      expect(swap.status).toBeGreaterThanOrEqual(400)
      expect(swap.status).toBeLessThan(500)

      expect((await platform(placed.refpay.payment_id)).status).toBe("WAITING")
      const after = await adminOrder(placed.orderId)
      expect(after.payment_collections[0].payment_sessions.map((s: any) => s.id)).toEqual([session(order).id])

      await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + 11 * MINUTE))
      expect((await control("GET", "/payments")).payments?.length).toBe(created)
      expect((await platform(placed.refpay.payment_id)).status).toBe("WAITING")
    })

    it("does not resume a session that no cart completion started", async () => {
      const placed = await placeOrder()
      const order = await adminOrder(placed.orderId)
      const container = ctx.getContainer()
      // A pending REFPAY session on the placed order's collection that a store request (not a checkout) created.
      const { createPaymentSessionsWorkflow } = await import("@medusajs/medusa/core-flows")
      const { result } = await createPaymentSessionsWorkflow(container).run({
        input: { payment_collection_id: order.payment_collections[0].id, provider_id: "pp_refpay_refpay", data: {} },
      })
      const created = (await control("GET", "/payments")).payments?.length

      await pollRefpayPayments(container, new Date(Date.now() + 11 * MINUTE))
      expect((await control("GET", "/payments")).payments?.length).toBe(created)
      const sessions = (await adminOrder(placed.orderId)).payment_collections[0].payment_sessions
      expect(sessions.find((s: any) => s.id === result.id)?.status).toBe("pending")
    })
  })
})

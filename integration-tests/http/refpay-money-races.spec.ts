import { randomUUID } from "node:crypto"
import type { IEventBusModuleService, IOrderModuleService, IPaymentModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { refpayProviderFor } from "../../src/providers/refpay/refpay-providers"
import { refundKeyFor } from "../../src/rules/identifiers"
import { INTERRUPTED_REFUND_AFTER_MS } from "../../src/rules/refunds"
import { pollRefpayPayments } from "../../src/sync-triggers/poll/poll"
import { syncRefpayPayment } from "../../src/sync-triggers/sync-payment"
import { REFUND_INTERRUPTED_EVENT } from "../../src/workflows/refpay-sync/steps/interrupted-refunds"
import { AMOUNT_MISMATCH_EVENT } from "../../src/sync-triggers/sync-payment"
import { holdPlatformCall, waitForWebhookEventHandled } from "../fixtures/hold"
import {
  approvedEvent,
  captureCount,
  refpayOrders,
  refundCutShort,
  refundedTotal,
  session,
} from "../fixtures/refpay-orders"
import { waitFor } from "../fixtures/wait"
import { itOnSeededDatabase, keepDatabaseBetweenTests } from "../fixtures/database-restore"
import { refpayIntegrationSuite, TEST_WEBHOOK_SECRET } from "../harness"

jest.setTimeout(180 * 1000)

const MINUTE = 60_000
const DAY = 86_400_000
const CANCEL_PATH = "/dpm/payments-gwproxy/v2/payments/cancel"
const STATUS_PATH = "/dpm/hub-payment-info/v1/payments/info/"

/**
 * The money races review reproduced (issue "never lose or misstate a payment"), each against a real Medusa app and
 * the sandbox: what the platform did is what Medusa records, a late payment is never dropped, the poll job cannot
 * starve, and no path captures a payment for another amount than the order's.
 */
refpayIntegrationSuite(
  "REFPAY money under races: cancellations, late payments, polling fairness, amounts",
  (ctx) => {
    const { api, adminHeaders, control } = ctx
    const { shopUrl, adminOrder, placeOrder, waitForOrder, postToPluginRoute } = refpayOrders(ctx)
    const platform = (paymentId: string) => control("GET", `/payments/${paymentId}`)
    const container = () => ctx.getContainer()

    beforeEach(async () => {
      await control("POST", "/webhooks/config", { url: `${shopUrl()}/hooks/refpay`, secret: TEST_WEBHOOK_SECRET })
    })

    /** Every status read answers the payment APPROVED for `amount` with nothing refunded (another amount, a lagging read). */
    async function platformReportsAmount(refpay: { payment_id: string; order_id: string }, amount: string) {
      await control("POST", "/faults", {
        path: `${STATUS_PATH}${refpay.payment_id}`,
        method: "GET",
        count: 1000,
        status: 200,
        body: {
          payment_id: refpay.payment_id,
          order_id: refpay.order_id,
          status: "APPROVED",
          amount,
          refunded_amount: "0",
          currency: "EUR",
        },
      })
    }

    describe("a cancellation racing the customer's payment", () => {
      keepDatabaseBetweenTests()
      it("records the platform's refund (not a 'refund it' flag) when the payment lands during the order's cancel call", async () => {
        const { orderId, refpay } = await placeOrder()
        // The platform's cancel call is held before it does anything; the customer pays meanwhile.
        const cancel = await holdPlatformCall(control, { path: CANCEL_PATH, method: "POST" })
        const cancelled = api.post(`/admin/orders/${orderId}/cancel`, {}, adminHeaders())
        await cancel.held()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        await cancel.release()
        await cancelled

        await waitFor(
          async () => (await platform(refpay.payment_id)).refunded_amount === "2498",
          20_000,
          "platform refund"
        )
        // Medusa writes the refund, then the collection's totals: wait for both.
        const order = await waitForOrder(
          orderId,
          (o) => captureCount(o) === 1 && refundedTotal(o) === 2498 && o.payment_status === "refunded"
        )
        expect(order.status).toBe("canceled")
        expect(session(order).data.paid_after_cancellation_at ?? null).toBeNull()

        // Later checks agree and change nothing.
        await api.post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders())
        const again = await adminOrder(orderId)
        expect([captureCount(again), refundedTotal(again)]).toEqual([1, 2498])
        expect(session(again).data.paid_after_cancellation_at ?? null).toBeNull()
      })

      itOnSeededDatabase(
        "records the platform's refund when the payment lands while expiry cancels the reference",
        async () => {
          const { orderId, refpay } = await placeOrder()
          await control("POST", "/webhooks/config", { url: null })
          // Expiry's cancel call is held before it does anything; the customer pays meanwhile.
          const cancel = await holdPlatformCall(control, { path: CANCEL_PATH, method: "POST" })
          const pollRun = pollRefpayPayments(container(), new Date(Date.now() + 7 * DAY + 25 * 3_600_000))
          await cancel.held()
          await control("POST", `/payments/${refpay.payment_id}/pay`)
          await cancel.release()
          await pollRun

          expect((await platform(refpay.payment_id)).refunded_amount).toBe("2498")
          const order = await waitForOrder(orderId, (o) => captureCount(o) === 1 && refundedTotal(o) === 2498)
          expect(session(order).data.paid_after_cancellation_at ?? null).toBeNull()
        }
      )
    })

    describe("a late payment after one transient failure", () => {
      keepDatabaseBetweenTests()
      it("answers an unprocessed event with 503 so the platform redelivers it, and the redelivery records the payment", async () => {
        const { orderId, refpay } = await placeOrder()
        await api.post(`/admin/orders/${orderId}/cancel`, {}, adminHeaders())
        await waitForOrder(orderId, (o) => session(o).status === "canceled")
        await waitFor(
          async () => {
            const { events } = (await control("GET", `/webhooks?payment_id=${refpay.payment_id}`)) as any
            return events.some(
              (e: any) => e.event_type === "CANCELLED_TRANSACTIONS" && e.attempts.some((a: any) => a.status === 200)
            )
          },
          10_000,
          "the cancellation's webhook delivered"
        )
        // Both attempts of the next status read fail (the client retries once).
        await control("POST", "/faults", {
          path: `${STATUS_PATH}${refpay.payment_id}`,
          method: "GET",
          count: 2,
          status: 503,
        })
        await control("POST", `/payments/${refpay.payment_id}/pay`, { force: true })

        const order = await waitForOrder(
          orderId,
          (o) => captureCount(o) === 1 && !!session(o).data.paid_after_cancellation_at
        )
        expect(order.status).toBe("canceled")
        // The redelivery's 200 is logged once its answer is back, just after the capture it made.
        const attempts = async () => {
          const { events } = (await control("GET", `/webhooks?payment_id=${refpay.payment_id}`)) as any
          return events
            .find((e: any) => e.event_type === "APPROVED_TRANSACTIONS")
            .attempts.map((a: any) => a.status) as number[]
        }
        await waitFor(async () => (await attempts()).includes(200), 10_000, "the redelivery answered 200")
        expect(await attempts()).toEqual(expect.arrayContaining([503, 200]))
      })

      itOnSeededDatabase(
        "finds a late payment on a cancelled order through the poll job alone, without any webhook",
        async () => {
          const { orderId, refpay } = await placeOrder()
          await api.post(`/admin/orders/${orderId}/cancel`, {}, adminHeaders())
          await waitForOrder(orderId, (o) => session(o).status === "canceled")
          await control("POST", "/webhooks/config", { url: null })
          await control("POST", `/payments/${refpay.payment_id}/pay`, { force: true })

          await pollRefpayPayments(container(), new Date(Date.now() + 11 * MINUTE))
          const order = await adminOrder(orderId)
          expect(captureCount(order)).toBe(1)
          expect(session(order).data.paid_after_cancellation_at).toBeTruthy()
        }
      )
    })

    describe("the poll job is fair", () => {
      it("backs off a payment the platform does not know, so a paid one behind it is still checked", async () => {
        const unknown = await placeOrder()
        const paid = await placeOrder()
        await control("POST", "/webhooks/config", { url: null })
        await control("POST", "/faults", {
          path: `${STATUS_PATH}${unknown.refpay.payment_id}`,
          method: "GET",
          count: 1000,
          status: 404,
        })
        await control("POST", `/payments/${paid.refpay.payment_id}/pay`)

        const start = Date.now()
        for (let minute = 11; minute <= 14; minute++)
          await pollRefpayPayments(container(), new Date(start + minute * MINUTE))
        expect((await adminOrder(paid.orderId)).payment_status).toBe("captured")
        const stillOpen = await adminOrder(unknown.orderId)
        expect(stillOpen.status).not.toBe("canceled")
        expect(session(stillOpen).status).toBe("pending_authorization")
      })

      it("announces an amount mismatch once per new amount, not on every poll run, and never captures it", async () => {
        const emitted: any[] = []
        container()
          .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
          .subscribe(AMOUNT_MISMATCH_EVENT, async (event: any) => {
            emitted.push(event.data)
          })
        const { orderId, refpay } = await placeOrder()
        await platformReportsAmount(refpay, "2499")
        const start = Date.now()
        for (let minute = 11; minute <= 60; minute += 12)
          await pollRefpayPayments(container(), new Date(start + minute * MINUTE))
        // The event bus delivers to subscribers asynchronously: wait for the announcement, then for anything in flight.
        await waitFor(async () => emitted.some((e) => e.order_id === orderId), 10_000, "the amount mismatch announced")
        await ctx.utils.waitWorkflowExecutions()
        expect(emitted.filter((e) => e.order_id === orderId)).toHaveLength(1)
        expect(captureCount(await adminOrder(orderId))).toBe(0)
      })
    })

    describe("the amount check holds on every path", () => {
      keepDatabaseBetweenTests()
      it("never captures through Medusa's own webhook route a payment the platform reports for another amount", async () => {
        const { orderId, refpay } = await placeOrder()
        await platformReportsAmount(refpay, "2499")
        const answer = await api.post(
          `/hooks/payment/refpay_refpay`,
          approvedEvent(refpay, "evt-medusa-route-mismatch", 2499),
          {
            headers: { "x-refpay-webhook-secret": TEST_WEBHOOK_SECRET },
          }
        )
        expect(answer.status).toBe(200)
        // Medusa processes its webhook event 5 s later: wait until the plugin has recorded it as handled.
        await waitForWebhookEventHandled(container(), "evt-medusa-route-mismatch")
        await ctx.utils.waitWorkflowExecutions()
        const order = await adminOrder(orderId)
        expect(captureCount(order)).toBe(0)
        expect(order.payment_status).toBe("awaiting")
      })

      it("never captures a mismatched payment through the payment module's authorisation (the admin's Check status)", async () => {
        const { orderId, refpay } = await placeOrder()
        await platformReportsAmount(refpay, "2499")
        const payments = container().resolve<IPaymentModuleService>(Modules.PAYMENT)
        const sessionId = session(await adminOrder(orderId)).id
        await payments.authorizePaymentSession(sessionId, {}).catch(() => null)
        const answer = await api.post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders())
        expect(answer.data.action).toBe("amount_mismatch")
        expect(captureCount(await adminOrder(orderId))).toBe(0)
      })

      it("ties an event through the plugin's webhook route to its session only when the platform's own record matches", async () => {
        const first = await placeOrder()
        const second = await placeOrder()
        await control("POST", `/payments/${second.refpay.payment_id}/pay`)
        await waitForOrder(second.orderId, (o) => o.payment_status === "captured")
        // An event naming the first order with the second (paid) payment: not about the first order.
        const answer = await postToPluginRoute(
          approvedEvent({ payment_id: second.refpay.payment_id, order_id: first.refpay.order_id }, "evt-crossed")
        )
        expect(answer.status).toBe(200)
        expect(captureCount(await adminOrder(first.orderId))).toBe(0)
      })
    })

    describe("a payment the platform does not know", () => {
      it("answers the admin's check with a clear 4xx, shows it in the view, and cancels nothing", async () => {
        const { orderId } = await placeOrder()
        await control("POST", "/reset") // a restarted sandbox: the platform no longer knows the payment
        const check = await api
          .post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders())
          .catch((e: any) => e.response)
        expect(check.status).toBe(400)
        expect(check.data.message).toMatch(/does not know/)
        const { data } = await api.get(`/admin/refpay/orders/${orderId}`, adminHeaders())
        expect(data.refpay.last_check).toMatchObject({ outcome: "unknown_payment" })

        await pollRefpayPayments(container(), new Date(Date.now() + 8 * DAY + 25 * 3_600_000))
        const order = await adminOrder(orderId)
        expect(order.status).not.toBe("canceled")
        expect(session(order).status).toBe("pending_authorization")
      })
    })

    describe("refunds", () => {
      keepDatabaseBetweenTests()
      it("does not refund twice when a refund's answer is lost, nor when the owner refunds what the platform already refunded", async () => {
        const { orderId, refpay } = await placeOrder()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        const paid = await waitForOrder(orderId, (o) => o.payment_status === "captured")
        const paymentId = paid.payment_collections[0].payments[0].id
        // The platform refunds, then every answer is lost (both attempts): the provider looks before failing.
        await control("POST", "/faults", { path: CANCEL_PATH, method: "POST", count: 2, status: 500, when: "after" })
        const lost = await api.post(`/admin/payments/${paymentId}/refund`, { amount: 10 }, adminHeaders())
        expect(lost.status).toBe(200)
        expect((await platform(refpay.payment_id)).refunded_amount).toBe("1000")
        expect(refundedTotal(await adminOrder(orderId))).toBe(1000)

        // A refund the platform made that Medusa has no record of (an earlier try Medusa deleted after its failure):
        // a new refund is refused until it is recorded (it would pay the customer twice for one intent), and
        // "Check status now" records it under the platform's own key.
        await (
          await refpayProviderFor(ctx.getContainer(), "pp_refpay_refpay")
        ).client.cancelOrRefund({ paymentId: refpay.payment_id, amountCents: 500, idempotencyKey: randomUUID() })
        const retried = await api
          .post(`/admin/payments/${paymentId}/refund`, { amount: 5 }, adminHeaders())
          .catch((e: any) => e.response)
        expect(retried.status).toBe(400)
        expect(retried.data.message).toMatch(/not recorded yet/)
        expect((await platform(refpay.payment_id)).refunded_amount).toBe("1500")
        expect(refundedTotal(await adminOrder(orderId))).toBe(1000)
        expect((await api.post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders())).data.action).toBe(
          "record_refund"
        )
        expect(refundedTotal(await adminOrder(orderId))).toBe(1500)
        await api.post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders())
        expect(refundedTotal(await adminOrder(orderId))).toBe(1500)
        // A refund cut short beside them: long after, only it is removed; the recorded platform refund (its Medusa
        // refund's id kept as a recording) and the refund made stay.
        const cut = await refundCutShort(container(), paymentId, 2)
        const sessionId = session(await adminOrder(orderId)).id
        await syncRefpayPayment(container(), { sessionId, reason: "admin", now: new Date(Date.now() + DAY) })
        const after = await adminOrder(orderId)
        expect(refundedTotal(after)).toBe(1500)
        expect(after.payment_collections[0].payments[0].refunds.map((r: any) => r.id)).not.toContain(cut.id)
      })

      it("removes from Medusa a refund cut short by a server that died during its platform call, once it cannot still be on its way, so the owner's new refund is the one made", async () => {
        const { orderId, refpay } = await placeOrder()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        const paid = await waitForOrder(orderId, (o) => o.payment_status === "captured")
        const paymentId = paid.payment_collections[0].payments[0].id
        const sessionId = session(paid).id
        const orders = container().resolve<IOrderModuleService>(Modules.ORDER)
        const interrupted: any[] = []
        container()
          .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
          .subscribe(REFUND_INTERRUPTED_EVENT, async (event: any) => {
            interrupted.push(event.data)
          })
        const cut = await refundCutShort(container(), paymentId, 10)
        expect(refundedTotal(await adminOrder(orderId))).toBe(1000)

        // The owner refunds again: made on the platform; Medusa books an order transaction for each refund it has.
        expect((await api.post(`/admin/payments/${paymentId}/refund`, { amount: 10 }, adminHeaders())).status).toBe(200)
        expect((await platform(refpay.payment_id)).refunded_amount).toBe("1000")
        expect(refundedTotal(await adminOrder(orderId))).toBe(2000)

        // Within the wait a refund call may still last, the check leaves it.
        await api.post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders())
        expect(refundedTotal(await adminOrder(orderId))).toBe(2000)

        const later = new Date(Date.now() + INTERRUPTED_REFUND_AFTER_MS + MINUTE)
        await syncRefpayPayment(container(), { sessionId, reason: "admin", now: later })
        const after = await adminOrder(orderId)
        expect(refundedTotal(after)).toBe(1000)
        expect(after.payment_collections[0].payments[0].refunds.map((r: any) => r.id)).not.toContain(cut.id)
        const booked = await orders.listOrderTransactions({ order_id: orderId, reference: "refund" })
        expect(booked.map((t) => t.reference_id)).not.toContain(cut.id)
        expect(booked).toHaveLength(1)
        // Removed, never made: no refund call was ever sent under its key.
        const cutKey = refundKeyFor(refpay.payment_id, cut.id)
        const calls = (await control("GET", `/requests?path=${CANCEL_PATH}`)).requests
        const sentUnder = (key: string) => calls.filter((r: { idempotency_key?: string }) => r.idempotency_key === key)
        expect(sentUnder(cutKey)).toEqual([])
        const [made] = after.payment_collections[0].payments[0].refunds
        expect(sentUnder(refundKeyFor(refpay.payment_id, made.id))).toHaveLength(1)
        expect((await platform(refpay.payment_id)).refunded_amount).toBe("1000")
        await waitFor(async () => interrupted.length > 0, 10_000, "refpay.refund.interrupted")
        expect(interrupted).toEqual([
          expect.objectContaining({ order_id: orderId, refund_id: cut.id, payment_id: paymentId, amount_cents: 1000 }),
        ])

        await syncRefpayPayment(container(), { sessionId, reason: "admin", now: later })
        expect(refundedTotal(await adminOrder(orderId))).toBe(1000)
        expect(interrupted).toHaveLength(1)
      })

      it("never removes a refund the platform answered with success when later status reads do not list it, and still removes the one cut short beside it", async () => {
        const { orderId, refpay } = await placeOrder()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        const paid = await waitForOrder(orderId, (o) => o.payment_status === "captured")
        const paymentId = paid.payment_collections[0].payments[0].id
        const sessionId = session(paid).id
        const interrupted: any[] = []
        container()
          .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
          .subscribe(REFUND_INTERRUPTED_EVENT, async (event: any) => {
            interrupted.push(event.data)
          })
        // The owner refunds: the platform answers 200 and makes it.
        expect((await api.post(`/admin/payments/${paymentId}/refund`, { amount: 10 }, adminHeaders())).status).toBe(200)
        const made = await platform(refpay.payment_id)
        expect(made.refunded_amount).toBe("1000")
        const [answered] = (await adminOrder(orderId)).payment_collections[0].payments[0].refunds
        // A refund cut short beside it: no answer recorded, absent from the platform.
        const cut = await refundCutShort(container(), paymentId, 5)
        expect(refundedTotal(await adminOrder(orderId))).toBe(1500)

        // Every later status read lags (or the platform refunds asynchronously): neither refund is listed.
        await platformReportsAmount(refpay, made.amount)
        const later = new Date(Date.now() + INTERRUPTED_REFUND_AFTER_MS + MINUTE)
        await syncRefpayPayment(container(), { sessionId, reason: "admin", now: later })
        const refundIds = (await adminOrder(orderId)).payment_collections[0].payments[0].refunds.map((r: any) => r.id)
        expect(refundIds).not.toContain(cut.id)
        expect(refundIds).toContain(answered.id)
        expect(refundedTotal(await adminOrder(orderId))).toBe(1000)
        await waitFor(async () => interrupted.length > 0, 10_000, "refpay.refund.interrupted")
        expect(interrupted.map((e) => e.refund_id)).toEqual([cut.id])

        await syncRefpayPayment(container(), { sessionId, reason: "admin", now: later })
        expect((await adminOrder(orderId)).payment_collections[0].payments[0].refunds.map((r: any) => r.id)).toEqual([
          answered.id,
        ])
        expect(interrupted.map((e) => e.refund_id)).toEqual([cut.id])
        expect((await control("GET", `/requests?path=${CANCEL_PATH}`)).requests).toHaveLength(1)
      })
    })

    describe("secrets", () => {
      keepDatabaseBetweenTests()
      it("keeps the webhook secret out of Medusa's payment.webhook_received event", async () => {
        const seen: any[] = []
        container()
          .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
          .subscribe("payment.webhook_received", async (event: any) => {
            seen.push(event)
          })
        const { orderId, refpay } = await placeOrder()
        await control("POST", "/webhooks/config", { url: null })
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        const basic = `Basic ${Buffer.from(`refpay:${TEST_WEBHOOK_SECRET}`).toString("base64")}`
        await api.post(`/hooks/payment/refpay_refpay`, approvedEvent(refpay, "evt-secret-1"), {
          headers: { "x-refpay-webhook-secret": TEST_WEBHOOK_SECRET },
        })
        await api.post(`/hooks/payment/refpay_refpay`, approvedEvent(refpay, "evt-secret-2"), {
          headers: { authorization: basic },
        })
        await waitForOrder(orderId, (o) => o.payment_status === "captured", 30_000)
        await waitFor(async () => seen.length >= 2, 10_000, "webhook events")
        const text = JSON.stringify(seen)
        expect(text).not.toContain(TEST_WEBHOOK_SECRET)
        expect(text).not.toContain(basic.slice(6))
      })
    })
  },
  { env: { REFPAY_POLL_INTERVAL_MINUTES: "10", REFPAY_POLL_BATCH_SIZE: "1" } }
)

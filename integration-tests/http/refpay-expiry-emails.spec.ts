import type { INotificationModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { TestEventUtils } from "@medusajs/test-utils"
import { keepDatabaseBetweenTests } from "../fixtures/database-restore"
import { completeCart, placeRefpayOrder, prepareCart } from "../fixtures/checkout"
import { expirySuite } from "../fixtures/expiry"
import { captureCount, refundedTotal, session } from "../fixtures/refpay-orders"
import { holdPlatformCall } from "../fixtures/hold"
import { CANCEL_PATH, CREATE_PATH } from "../fixtures/model-refpay"
import { REFPAY_PROVIDER_ID } from "../fixtures/store"
import { withAmountLimits } from "../fixtures/amount-limits"
import { adminCreatedOrder, adminDraftOrder, orderEdits } from "../fixtures/order-edit"
import { waitFor } from "../fixtures/wait"
import { refpayIntegrationSuite } from "../harness"
import { pollRefpayPayments } from "../../src/sync-triggers/poll/poll"
import { refreshReferenceCopies } from "../../src/medusa-compat/medusa-tables/reference-copies"
import { refpayProviderFor } from "../../src/providers/refpay/refpay-providers"
import { lisbonDateTime, lisbonDay, TIME_TO_PAY_BUCKETS, timeToPayBucket } from "../../src/rules/owner-numbers"

jest.setTimeout(180 * 1000)

// From refpay-expiry-renewal.spec.ts:
const DAY = 86_400_000
const HOUR = 3_600_000

// From refpay-views-notifications.spec.ts:
// Needs the test app's medusa-config.ts to register `@medusajs/medusa/notification-local` for the "email" channel
// when REFPAY_TEST_NOTIFICATIONS=local (without it, the first test fails on status "failure": no provider).

/**
 * One app with Medusa's Notification module (`@medusajs/medusa/notification-local` serves "email" when
 * REFPAY_TEST_NOTIFICATIONS=local, see medusa-config.ts): the expiry policies and their e-mails, and the payment
 * instructions e-mail on order.placed.
 */
refpayIntegrationSuite(
  "REFPAY with Medusa's Notification module (local e-mail provider): expiry, renewal, reminders and payment instructions",
  (ctx) => {
    describe("REFPAY expiry policy renew (default): reminders, new references, renewal limit, late payment on an old reference", () => {
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
        expect(old).toMatchObject({
          status: "canceled",
          data: { expired_at: expect.any(String), refpay: { status: "CANCELLED" } },
        })
        expect(renewed.status).toBe("pending_authorization")
        expect(renewed.data.refpay.reference).not.toBe(old.data.refpay.reference)
        expect(renewed.data.refpay.payment_id).not.toBe(refpay.payment_id)
        expect(renewed.data.amount_cents).toBe(2498)
        expect((await control("GET", `/payments/${refpay.payment_id}`)).status).toBe("CANCELLED")
        expect(await payOnPlatform(refpay.payment_id)).toBe(false)

        await waitFor(
          async () => (await sent(orderId, "refpay-reference-expired")).length === 1,
          10_000,
          "renewal e-mail"
        )
        const [email] = await sent(orderId, "refpay-reference-expired")
        expect(email.data).toMatchObject({
          outcome: "renewed",
          entity: renewed.data.refpay.entity,
          reference: renewed.data.refpay.reference,
          expired_reference: { reference: old.data.refpay.reference },
        })
        const store = await storeView(orderId)
        expect(store.refpay).toMatchObject({
          entity: renewed.data.refpay.entity,
          reference: renewed.data.refpay.reference,
          status: "awaiting",
        })
        expect(store.previous_references).toEqual([
          expect.objectContaining({ reference: old.data.refpay.reference, expired: true }),
        ])

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
        await waitFor(
          async () => (await sent(orderId, "refpay-reference-expired")).length === 2,
          10_000,
          "cancellation e-mail"
        )
        const outcomes = (await sent(orderId, "refpay-reference-expired")).map((n) => n.data.outcome).sort()
        expect(outcomes).toEqual(["cancelled", "renewed"])
      })

      it("records a late payment on the expired reference once, flags it and cancels the new reference (no double payment)", async () => {
        const { orderId, refpay } = await orders.placeOrder()
        const renewedOrder = await expireOnPlatform(orderId, 2)
        const renewed = sessions(renewedOrder).find((s: any) => s.status === "pending_authorization")

        await control("POST", `/payments/${refpay.payment_id}/pay`, { force: true }) // a late bank settlement
        const order = await orders.waitForOrder(
          orderId,
          (o) => captureCount(o) === 1 && sessions(o).every((s: any) => s.status !== "pending_authorization")
        )
        const old = sessions(order).find((s: any) => s.id !== renewed.id)
        expect(old.data.paid_after_cancellation_at).toBeTruthy()
        expect((await control("GET", `/payments/${renewed.data.refpay.payment_id}`)).status).toBe("CANCELLED")
        expect(await payOnPlatform(renewed.data.refpay.payment_id)).toBe(false)
        await api.post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders())
        expect(captureCount(await orders.adminOrder(orderId))).toBe(1)
      })

      it("refuses 'Issue a new reference' while the current reference can still be paid", async () => {
        const { orderId } = await orders.placeOrder()
        const answer = await api
          .post(`/admin/refpay/orders/${orderId}/renew`, {}, adminHeaders())
          .catch((e: any) => e.response)
        expect(answer.status).toBe(400)
        expect(answer.data.message).toMatch(/can still be paid/)
      })
    })

    describe("REFPAY expiry policy cancel, and the admin's 'Issue a new reference'", () => {
      // This shop's expiry policy is cancel (REFPAY_EXPIRY_POLICY=cancel): the policy is read when a reference
      // expires, so these tests set it on the account and put the default (renew) back after.
      const policySettings = async () =>
        (await refpayProviderFor(ctx.getContainer(), REFPAY_PROVIDER_ID)).settings as { expiryPolicy: string }
      beforeAll(async () => {
        ;(await policySettings()).expiryPolicy = "cancel"
      })
      afterAll(async () => {
        ;(await policySettings()).expiryPolicy = "renew"
      })

      const { api, adminHeaders, control } = ctx
      const { orders, sessions, sent, storeView, expireOnPlatform } = expirySuite(ctx)

      it("cancels the reference and the order at expiry and e-mails the customer that the order was cancelled unpaid", async () => {
        const { orderId, refpay } = await orders.placeOrder()
        const order = await expireOnPlatform(orderId, 2)
        expect(order.status).toBe("canceled")
        expect(sessions(order)).toHaveLength(1)
        expect((await control("GET", `/payments/${refpay.payment_id}`)).status).toBe("CANCELLED")
        await waitFor(
          async () => (await sent(orderId, "refpay-reference-expired")).length === 1,
          10_000,
          "cancellation e-mail"
        )
        expect((await sent(orderId, "refpay-reference-expired"))[0].data).toMatchObject({ outcome: "cancelled" })
      })

      it("issues a new reference from the admin for an open order whose reference expired, the same way as a renewal", async () => {
        const settings = (await refpayProviderFor(ctx.getContainer(), "pp_refpay_refpay")).settings as {
          cancelExpiredOrders: boolean
        }
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
          await waitFor(
            async () => (await sent(orderId, "refpay-reference-expired")).length === 1,
            10_000,
            "renewal e-mail"
          )
          expect((await sent(orderId, "refpay-reference-expired"))[0].data).toMatchObject({
            outcome: "renewed",
            reference: answer.data.refpay.reference,
          })
        } finally {
          settings.cancelExpiredOrders = true
        }
      })
    })

    describe("an unpaid order whose total changes (Medusa's order edit): the reference follows the amount", () => {
      const { control, store } = ctx
      keepDatabaseBetweenTests()
      const { orders, sessions, sent, storeView, payOnPlatform } = expirySuite(ctx)
      const edits = orderEdits(ctx)
      const byAge = (order: any) =>
        [...sessions(order)].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
      const reissued = (count: number) => (o: any) =>
        sessions(o).length === count &&
        sessions(o).some((s: any) => s.status === "pending_authorization" && s.data?.refpay)
      const placeTwo = () => orders.placeOrder({ items: [{ variant_id: store().variantId, quantity: 2 }] })

      it("cancels the 44.97 reference of an order edited down to 24.98, issues and e-mails one for 24.98, and captures exactly that", async () => {
        const { orderId, refpay } = await placeTwo()
        const placed = await orders.adminOrder(orderId)
        expect(placed.payment_collections[0].payment_sessions[0].data.amount_cents).toBe(4497)

        await edits.setQuantity(orderId, placed.items[0].id, 1)
        const order = await orders.waitForOrder(orderId, reissued(2), 30_000)
        const [old, current] = byAge(order)
        expect(Number(order.payment_collections[0].amount)).toBe(24.98)
        expect(old).toMatchObject({ status: "canceled", data: { refpay: { status: "CANCELLED" } } })
        expect((await control("GET", `/payments/${refpay.payment_id}`)).status).toBe("CANCELLED")
        expect(await payOnPlatform(refpay.payment_id)).toBe(false)
        expect(current.data.amount_cents).toBe(2498)
        expect(Number((await control("GET", `/payments/${current.data.refpay.payment_id}`)).amount)).toBe(2498)

        // The customer sees only the new reference, and is told by e-mail which one to pay now.
        const view = await storeView(orderId)
        expect(view.refpay).toMatchObject({ reference: current.data.refpay.reference, amount_cents: 2498 })
        await waitFor(
          async () => (await sent(orderId, "refpay-payment-details-changed")).length === 1,
          10_000,
          "e-mail"
        )
        const [email] = await sent(orderId, "refpay-payment-details-changed")
        expect(email.data).toMatchObject({
          entity: current.data.refpay.entity,
          reference: current.data.refpay.reference,
          amount_cents: 2498,
          replaced_reference: { reference: old.data.refpay.reference, amount_cents: 4497 },
        })

        await control("POST", `/payments/${current.data.refpay.payment_id}/pay`)
        const paid = await orders.waitForOrder(orderId, (o) => o.payment_status === "captured")
        expect(captureCount(paid)).toBe(1)
        expect(paid.payment_collections[0].payments.map((p: any) => Number(p.amount))).toEqual([24.98])
      })

      it("re-issues for the higher amount when items are added to an unpaid order", async () => {
        const { orderId, refpay } = await orders.placeOrder()
        await edits.addItems(orderId, store().variantId, 1)
        const [old, current] = byAge(await orders.waitForOrder(orderId, reissued(2), 30_000))
        expect(old.data.refpay.payment_id).toBe(refpay.payment_id)
        expect(old.status).toBe("canceled")
        expect(current.data.amount_cents).toBe(4497)
        expect((await storeView(orderId)).refpay).toMatchObject({ amount_cents: 4497 })
      })

      it("cancels the old reference but attempts none for a new total below the minimum, and says why when one is requested", async () => {
        const { orderId, refpay } = await placeTwo()
        const placed = await orders.adminOrder(orderId)
        await withAmountLimits(ctx.getContainer(), { minAmountCents: 3000 }, async () => {
          await edits.setQuantity(orderId, placed.items[0].id, 1)
          await orders.waitForOrder(orderId, (o) => sessions(o)[0].status === "canceled", 30_000)
          expect((await control("GET", `/payments/${refpay.payment_id}`)).status).toBe("CANCELLED")
          const refused = await ctx.api
            .post(`/admin/refpay/orders/${orderId}/payment-requests`, {}, ctx.adminHeaders())
            .catch((e: any) => e.response)
          expect(refused.status).toBe(400)
          expect(refused.data.message.replace(/\u00a0/g, " ")).toContain(
            "A REFPAY reference must be for at least €30.00, and this amount is €24.98."
          )
        })
        const order = await orders.adminOrder(orderId)
        expect(sessions(order)).toHaveLength(1)
        expect(await sent(orderId, "refpay-payment-details-changed")).toHaveLength(0)
        // Within the limits again, the shop owner's request issues it.
        const { data } = await ctx.api.post(`/admin/refpay/orders/${orderId}/payment-requests`, {}, ctx.adminHeaders())
        expect(data.refpay).toMatchObject({ amount_cents: 2498, status: "awaiting" })
      })

      it("records the old reference's payment when the customer paid it before the edit reached the platform: paid, never lost", async () => {
        const { orderId, refpay } = await placeTwo()
        const placed = await orders.adminOrder(orderId)
        await control("POST", "/webhooks/config", { url: null })
        await control("POST", `/payments/${refpay.payment_id}/pay`)

        await edits.setQuantity(orderId, placed.items[0].id, 1)
        const order = await orders.waitForOrder(orderId, (o) => captureCount(o) === 1, 30_000)
        expect(order.payment_collections[0].payments.map((p: any) => Number(p.amount))).toEqual([44.97])
        expect(sessions(order)).toHaveLength(1)
        expect(await sent(orderId, "refpay-payment-details-changed")).toHaveLength(0)
      })

      it("records the payment and the platform's refund when the customer pays the old reference during its cancel call", async () => {
        const { orderId, refpay } = await placeTwo()
        const placed = await orders.adminOrder(orderId)
        await control("POST", "/webhooks/config", { url: null })
        // The sync's cancel call is held before the platform acts on it; the customer pays meanwhile.
        const cancel = await holdPlatformCall(control, { path: CANCEL_PATH, method: "POST" })
        const edited = edits.setQuantity(orderId, placed.items[0].id, 1)
        await cancel.held()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        await cancel.release()
        await edited

        const order = await orders.waitForOrder(
          orderId,
          (o) => captureCount(o) === 1 && refundedTotal(o) === 4497,
          30_000
        )
        expect((await control("GET", `/payments/${refpay.payment_id}`)).refunded_amount).toBe("4497")
        expect(order.payment_collections[0].payments.map((p: any) => Number(p.amount))).toEqual([44.97])
        // The customer got the money back from the platform; nothing was issued on top of a payment.
        expect(sessions(order)).toHaveLength(1)
        expect(await sent(orderId, "refpay-payment-details-changed")).toHaveLength(0)
      })
    })

    describe("an outstanding amount on a placed order: a REFPAY reference requested from the admin or the storefront", () => {
      const { api, adminHeaders, storeHeaders, control, store } = ctx
      keepDatabaseBetweenTests()
      const { orders, sent } = expirySuite(ctx)
      const edits = orderEdits(ctx)
      const requests = (orderId: string) => `/refpay/orders/${orderId}/payment-requests`
      const placeTwo = () => orders.placeOrder({ items: [{ variant_id: store().variantId, quantity: 2 }] })
      const adminRequests = async (orderId: string) =>
        (await api.get(`/admin${requests(orderId)}`, adminHeaders())).data
      const outstanding = async (orderId: string) =>
        (await api.get(`/admin/orders/${orderId}?fields=summary`, adminHeaders())).data.order.summary.pending_difference

      /** A paid 24.98 order to which the shop owner adds one 19.99 item: Medusa opens a collection for the 19.99. */
      async function paidOrderWithDifference() {
        const { orderId, refpay } = await orders.placeOrder()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        await orders.waitForOrder(orderId, (o) => o.payment_status === "captured")
        await edits.addItems(orderId, store().variantId, 1)
        const { collections } = await adminRequests(orderId)
        const due = collections.find((c: any) => c.state === "requestable")
        return { orderId, collectionId: due.id as string }
      }

      it("lists the order's collections, issues a reference for exactly the 19.99 due, e-mails it, and the capture brings the outstanding amount to 0", async () => {
        const { orderId, collectionId } = await paidOrderWithDifference()
        const before = await adminRequests(orderId)
        expect(before).toMatchObject({ outstanding_cents: 1999, refpay_available: true })
        expect(before.collections).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ state: "paid", amount_cents: 2498 }),
            expect.objectContaining({ id: collectionId, state: "requestable", amount_cents: 1999, refpay: null }),
          ])
        )

        const { data } = await api.post(
          `/admin${requests(orderId)}`,
          { payment_collection_id: collectionId },
          adminHeaders()
        )
        expect(data.payment_collection_id).toBe(collectionId)
        expect(data.refpay).toMatchObject({
          entity: expect.any(String),
          reference: expect.stringMatching(/^\d{9}$/),
          amount_cents: 1999,
          status: "awaiting",
          expires_at: expect.any(String),
        })
        expect(Number((await control("GET", `/payments/${data.refpay.payment_id}`)).amount)).toBe(1999)
        await waitFor(
          async () =>
            (await sent(orderId, "refpay-payment-instructions")).some(
              (n) => n.data.reference === data.refpay.reference
            ),
          10_000,
          "the requested reference's e-mail"
        )

        await control("POST", `/payments/${data.refpay.payment_id}/pay`)
        await waitFor(async () => (await outstanding(orderId)) === 0, 20_000, "outstanding amount 0")
        const order = await orders.adminOrder(orderId)
        expect(captureCount(order)).toBe(2)
        expect(order.payment_collections.map((c: any) => c.status).sort()).toEqual(["completed", "completed"])
        expect((await adminRequests(orderId)).collections.every((c: any) => c.state === "paid")).toBe(true)
        // The thank-you page still shows the checkout's payment; the difference is not a reference it "replaced".
        const { data: page } = await api.get(`/store/refpay/orders/${orderId}`, storeHeaders())
        expect(page.refpay).toMatchObject({ amount_cents: 2498, status: "paid" })
        expect(page.previous_references).toEqual([])
      })

      it("gives the storefront the same reference however often it asks, and only one platform payment", async () => {
        const { orderId, collectionId } = await paidOrderWithDifference()
        const ask = () =>
          api.post(`/store${requests(orderId)}`, { payment_collection_id: collectionId }, storeHeaders())
        const [first, second] = await Promise.all([ask(), ask()])
        const third = await ask()
        expect(first.data.refpay).toMatchObject({ amount_cents: 1999 })
        expect([second.data.refpay.reference, third.data.refpay.reference]).toEqual([
          first.data.refpay.reference,
          first.data.refpay.reference,
        ])
        const order = await orders.adminOrder(orderId)
        const due = order.payment_collections.find((c: any) => c.id === collectionId)
        expect(due.payment_sessions.filter((s: any) => s.data?.refpay)).toHaveLength(1)
        const listed = (await api.get(`/store${requests(orderId)}`, storeHeaders())).data
        expect(listed.collections.find((c: any) => c.id === collectionId).refpay.reference).toBe(
          first.data.refpay.reference
        )
      })

      it("refuses to fulfil while the difference's reference is unpaid", async () => {
        const { orderId, collectionId } = await paidOrderWithDifference()
        await api.post(`/admin${requests(orderId)}`, { payment_collection_id: collectionId }, adminHeaders())
        const order = await orders.adminOrder(orderId)
        const fulfil = await api
          .post(
            `/admin/orders/${orderId}/fulfillments`,
            {
              items: order.items.map((i: any) => ({ id: i.id, quantity: i.quantity })),
              location_id: store().stockLocationId,
            },
            adminHeaders()
          )
          .catch((error: any) => error.response)
        expect(fulfil.status).toBe(400)
        expect(fulfil.data.message).toMatch(/has not been received/)
        // The panel and the storefront say the same: the checkout's payment is shown, paid, and "do not ship".
        const { refpay } = (await api.get(`/admin/refpay/orders/${orderId}`, adminHeaders())).data
        expect(refpay).toMatchObject({ status: "paid", amount_cents: 2498, do_not_ship: true })
      })

      it("takes the difference of an exchange (one item back, two out) by REFPAY, on the collection Medusa opened for it", async () => {
        const { orderId, refpay } = await orders.placeOrder()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        const paid = await orders.waitForOrder(orderId, (o) => o.payment_status === "captured")
        const items = paid.items.map((i: any) => ({ id: i.id, quantity: i.quantity }))
        await api.post(
          `/admin/orders/${orderId}/fulfillments`,
          { items, location_id: store().stockLocationId },
          adminHeaders()
        )
        await edits.exchange(orderId, paid.items[0].id, store().variantId, 2)
        // Medusa opens the collection for the exchange's difference (19.99), while its pending difference credits the
        // item coming back only once the return is received (39.98 until then).
        const before = await adminRequests(orderId)
        const due = before.collections.find((c: any) => c.state === "requestable")
        expect([due.amount_cents, before.outstanding_cents]).toEqual([1999, 3998])
        const { data } = await api.post(`/admin${requests(orderId)}`, {}, adminHeaders())
        expect(data).toMatchObject({
          payment_collection_id: due.id,
          refpay: { amount_cents: 1999, status: "awaiting" },
        })
        await control("POST", `/payments/${data.refpay.payment_id}/pay`)
        await waitFor(
          async () => (await adminRequests(orderId)).collections.every((c: any) => c.state === "paid"),
          20_000,
          "the exchange's collection paid"
        )
        // Medusa's capture records the order's transaction in a step after the capture itself: the summary follows the
        // collection's paid state by a moment (seen once in a full run: still 39.98 when read at once).
        await waitFor(
          async () => (await outstanding(orderId)) !== 39.98,
          20_000,
          "the order's summary after the capture"
        )
        expect(captureCount(await orders.adminOrder(orderId))).toBe(2)
        expect(await outstanding(orderId)).toBe(19.99) // the returned item's credit, due when the return is received
      })

      it("takes what a claim leaves due by REFPAY, on the collection Medusa opened for it", async () => {
        const { orderId, refpay } = await orders.placeOrder()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        const paid = await orders.waitForOrder(orderId, (o) => o.payment_status === "captured")
        const items = paid.items.map((i: any) => ({ id: i.id, quantity: i.quantity }))
        await api.post(
          `/admin/orders/${orderId}/fulfillments`,
          { items, location_id: store().stockLocationId },
          adminHeaders()
        )
        await edits.claim(orderId, paid.items[0].id, store().variantId, 2)
        const due = (await adminRequests(orderId)).collections.find((c: any) => c.state === "requestable")
        expect(due.amount_cents).toBeGreaterThan(0)
        const { data } = await api.post(`/admin${requests(orderId)}`, {}, adminHeaders())
        expect(data).toMatchObject({ payment_collection_id: due.id, refpay: { amount_cents: due.amount_cents } })
        await control("POST", `/payments/${data.refpay.payment_id}/pay`)
        await waitFor(
          async () => (await adminRequests(orderId)).collections.every((c: any) => c.state === "paid"),
          20_000,
          "the claim's collection paid"
        )
        expect(captureCount(await orders.adminOrder(orderId))).toBe(2)
      })

      it("refunds what an edit took off a paid order through Medusa's refund of the REFPAY payment", async () => {
        const { orderId, refpay } = await placeTwo()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        const paid = await orders.waitForOrder(orderId, (o) => o.payment_status === "captured")
        await edits.setQuantity(orderId, paid.items[0].id, 1)
        expect(await outstanding(orderId)).toBe(-19.99)
        const paymentId = paid.payment_collections[0].payments[0].id
        await api.post(`/admin/payments/${paymentId}/refund`, { amount: 19.99 }, adminHeaders())
        const refunded = await orders.waitForOrder(orderId, (o) => refundedTotal(o) === 1999)
        expect(captureCount(refunded)).toBe(1)
        expect((await control("GET", `/payments/${refpay.payment_id}`)).refunded_amount).toBe("1999")
        await waitFor(async () => (await outstanding(orderId)) === 0, 20_000, "outstanding amount 0")
      })

      it("takes payment by REFPAY for an order created in the admin (a draft order converted)", async () => {
        const orderId = await adminCreatedOrder(ctx)
        const before = await adminRequests(orderId)
        expect(before.outstanding_cents).toBe(2498)
        const { data } = await api.post(`/admin${requests(orderId)}`, {}, adminHeaders())
        expect(data.refpay).toMatchObject({ amount_cents: 2498, status: "awaiting" })
        await control("POST", `/payments/${data.refpay.payment_id}/pay`)
        await waitFor(async () => (await outstanding(orderId)) === 0, 20_000, "outstanding amount 0")
        expect(captureCount(await orders.adminOrder(orderId))).toBe(1)
      })

      it("explains, and does not attempt, a difference outside the amount limits: no session, no platform call", async () => {
        const { orderId, collectionId } = await paidOrderWithDifference()
        const payments = async () => ((await control("GET", "/payments")) as any).payments.length
        const before = await payments()
        await withAmountLimits(ctx.getContainer(), { minAmountCents: 2000 }, async () => {
          const refused = await api
            .post(`/admin${requests(orderId)}`, { payment_collection_id: collectionId }, adminHeaders())
            .catch((e: any) => e.response)
          expect(refused.status).toBe(400)
          expect(refused.data.message.replace(/\u00a0/g, " ")).toContain(
            "A REFPAY reference must be for at least €20.00, and this amount is €19.99."
          )
        })
        expect(await payments()).toBe(before)
        const due = (await orders.adminOrder(orderId)).payment_collections.find((c: any) => c.id === collectionId)
        expect(due.payment_sessions ?? []).toHaveLength(0)
      })

      it("never cancels (nor refunds) an order paid for when the reference of its difference is cancelled on the platform", async () => {
        const { orderId, collectionId } = await paidOrderWithDifference()
        const { data } = await api.post(
          `/admin${requests(orderId)}`,
          { payment_collection_id: collectionId },
          adminHeaders()
        )
        await control("POST", `/payments/${data.refpay.payment_id}/cancel`)
        await api.post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders())
        const order = await orders.waitForOrder(orderId, (o) =>
          o.payment_collections.some((c: any) => c.payment_sessions?.some((s: any) => s.status === "canceled"))
        )
        expect(order.status).not.toBe("canceled")
        expect([captureCount(order), refundedTotal(order)]).toEqual([1, 0])
        // The difference is still due: the shop owner may request it again.
        expect((await adminRequests(orderId)).collections.find((c: any) => c.id === collectionId).state).toBe(
          "requestable"
        )
      })

      it("refuses a request when nothing is due, and a collection of another order", async () => {
        const { orderId, refpay } = await orders.placeOrder()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        await orders.waitForOrder(orderId, (o) => o.payment_status === "captured")
        const nothing = await api.post(`/admin${requests(orderId)}`, {}, adminHeaders()).catch((e: any) => e.response)
        expect(nothing.status).toBe(400)
        expect(nothing.data.message).toMatch(/nothing to pay/i)

        const other = await paidOrderWithDifference()
        const foreign = await api
          .post(`/admin${requests(orderId)}`, { payment_collection_id: other.collectionId }, adminHeaders())
          .catch((e: any) => e.response)
        expect(foreign.status).toBe(404)
      })
    })

    describe("one payable reference per payment collection, and store requests that obey the shop", () => {
      const { api, adminHeaders, storeHeaders, control } = ctx
      const { orders, container, sessions, expireOnPlatform, sent } = expirySuite(ctx)
      const requests = (orderId: string) => `/store/refpay/orders/${orderId}/payment-requests`
      const settings = async () =>
        (await refpayProviderFor(container(), REFPAY_PROVIDER_ID)).settings as unknown as Record<string, unknown>
      /** Runs `body` with some of the account's settings changed, then puts them back. */
      async function withSettings(changes: Record<string, unknown>, body: () => Promise<void>) {
        const current = await settings()
        const before = Object.fromEntries(Object.keys(changes).map((key) => [key, current[key]]))
        Object.assign(current, changes)
        try {
          await body()
        } finally {
          Object.assign(current, before)
        }
      }
      /** The order's references the platform would still take a payment for. */
      async function payableOnPlatform(orderId: string): Promise<string[]> {
        const ids = ((await orders.adminOrder(orderId)).payment_collections ?? [])
          .flatMap((c: any) => c.payment_sessions ?? [])
          .map((s: any) => s.data?.refpay?.payment_id)
          .filter(Boolean) as string[]
        const statuses = await Promise.all(ids.map(async (id) => (await control("GET", `/payments/${id}`)).status))
        return ids.filter((_, i) => statuses[i] === "WAITING")
      }
      const platformPayments = async () => ((await control("GET", "/payments")) as any).payments.length
      /** An order whose checkout reference expired `renewals + 1` times, the last time not renewed and the order kept. */
      async function expiredAndKept(renewals: number) {
        const { orderId } = await orders.placeOrder()
        for (let n = 1; n <= renewals; n++) await expireOnPlatform(orderId, n + 1)
        await control("POST", "/clock", { advance_days: 8 })
        await orders.waitForOrder(
          orderId,
          (o) => sessions(o).length === renewals + 1 && sessions(o).every((s: any) => s.status === "canceled"),
          60_000
        )
        return orderId
      }

      it("answers a customer's request made while a renewal's platform call is under way with the reference being issued, never a second one", async () => {
        const { orderId } = await orders.placeOrder()
        await control("POST", "/webhooks/config", { url: null })
        // The expired reference's cancel call goes first (a fault's path is a prefix: the cancel's hold is the first
        // match for it), then the renewal's creation is held.
        const cancel = await holdPlatformCall(control, { path: CANCEL_PATH, method: "POST" })
        const create = await holdPlatformCall(control, { path: CREATE_PATH, method: "POST" })
        const pollRun = pollRefpayPayments(container(), new Date(Date.now() + 7 * DAY + 25 * HOUR))
        await cancel.held()
        await cancel.release()
        await create.held()
        const checkout = (await api.get(requests(orderId), storeHeaders())).data.collections[0]
        const asked = await api
          .post(requests(orderId), { payment_collection_id: checkout.id }, storeHeaders())
          .catch((e: any) => e.response)
        await create.release()
        await pollRun

        expect(asked.status).toBe(200)
        expect(asked.data.issued).toBe(false)
        const order = await orders.adminOrder(orderId)
        expect(sessions(order)).toHaveLength(2)
        expect(await payableOnPlatform(orderId)).toHaveLength(1)
        const renewed = sessions(order).find((s: any) => s.status === "pending_authorization")
        expect(renewed.data.refpay.payment_id).toBe((await payableOnPlatform(orderId))[0])
      })

      it("refuses the store's session route on a cancelled order's collection, so its cancelled reference's late payment is still recorded", async () => {
        const { orderId, refpay } = await orders.placeOrder()
        await api.post(`/admin/orders/${orderId}/cancel`, {}, adminHeaders())
        const cancelled = await orders.waitForOrder(orderId, (o) => session(o).status === "canceled")
        const collectionId = cancelled.payment_collections[0].id
        const replaced = await api
          .post(
            `/store/payment-collections/${collectionId}/payment-sessions`,
            { provider_id: "pp_system_default" },
            storeHeaders()
          )
          .catch((e: any) => e.response)
        expect(replaced.status).toBe(400)
        expect(sessions(await orders.adminOrder(orderId))).toHaveLength(1)

        await control("POST", `/payments/${refpay.payment_id}/pay`, { force: true }) // a late bank settlement
        // The capture is recorded first, the flag last.
        const late = await orders.waitForOrder(
          orderId,
          (o) => captureCount(o) === 1 && !!session(o).data.paid_after_cancellation_at
        )
        expect(sessions(late)).toHaveLength(1)
      })

      it("re-issues a checkout reference to the store only as the expiry policy allows: not under 'cancel' with the order kept (the admin still may)", async () => {
        await withSettings({ expiryPolicy: "cancel", cancelExpiredOrders: false }, async () => {
          const orderId = await expiredAndKept(0)
          const before = await platformPayments()
          const refused = await api.post(requests(orderId), {}, storeHeaders()).catch((e: any) => e.response)
          expect(refused.status).toBe(400)
          expect(await platformPayments()).toBe(before)
          const { data } = await api.post(`/admin/refpay/orders/${orderId}/payment-requests`, {}, adminHeaders())
          expect(data).toMatchObject({ issued: true, refpay: { status: "awaiting", amount_cents: 2498 } })
        })
      })

      it("re-issues a checkout reference to the store only within the renewal limit", async () => {
        await withSettings({ maxRenewals: 1, cancelExpiredOrders: false }, async () => {
          const orderId = await expiredAndKept(1)
          const before = await platformPayments()
          const refused = await api.post(requests(orderId), {}, storeHeaders()).catch((e: any) => e.response)
          expect(refused.status).toBe(400)
          expect(await platformPayments()).toBe(before)
        })
      })

      it("lets customers request only the amounts the shop chose: by default those of orders placed with REFPAY", async () => {
        const orderId = await adminCreatedOrder(ctx)
        const refused = await api.post(requests(orderId), {}, storeHeaders()).catch((e: any) => e.response)
        expect(refused.status).toBe(400)
        expect(await payableOnPlatform(orderId)).toHaveLength(0)
        await withSettings({ storePaymentRequests: "any" }, async () => {
          const { data } = await api.post(requests(orderId), {}, storeHeaders())
          expect(data).toMatchObject({ issued: true, refpay: { amount_cents: 2498 } })
        })
      })

      it("serves Medusa's payment link (/store/refpay/payment-collections/:id): what the collection owes, its reference issued on request under the shop's rules and paid, nothing about the customer", async () => {
        const { orderId, refpay } = await orders.placeOrder()
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        await orders.waitForOrder(orderId, (o) => o.payment_status === "captured")
        await orderEdits(ctx).addItems(orderId, ctx.store().variantId, 1)
        const { data: listed } = await api.get(requests(orderId), storeHeaders())
        const collectionId = listed.collections.find((c: any) => c.state === "requestable").id
        const link = `/store/refpay/payment-collections/${collectionId}`

        const before = (await api.get(link, storeHeaders())).data
        expect(before).toEqual({
          payment_collection: {
            id: collectionId,
            status: expect.any(String),
            state: "requestable",
            amount_cents: 1999,
            currency_code: "eur",
            refpay: null,
          },
          refpay_available: true,
        })
        // The shop's rules hold here as on the order route: with store requests off, refused and nothing issued.
        await withSettings({ storePaymentRequests: "none" }, async () => {
          const refused = await api.post(link, {}, storeHeaders()).catch((e: any) => e.response)
          expect(refused.status).toBe(400)
        })
        expect(await payableOnPlatform(orderId)).toEqual([])

        const [first, second] = await Promise.all([
          api.post(link, {}, storeHeaders()),
          api.post(link, {}, storeHeaders()),
        ])
        const issued = first.data.payment_collection
        expect(issued).toMatchObject({
          id: collectionId,
          state: "awaiting_refpay",
          refpay: {
            amount_cents: 1999,
            status: "awaiting",
            reference: expect.stringMatching(/^\d{9}$/),
            order_id: null,
          },
        })
        expect(second.data.payment_collection.refpay.reference).toBe(issued.refpay.reference)
        expect(await payableOnPlatform(orderId)).toEqual([issued.refpay.payment_id])
        // Its e-mail names the collection, so a shop's e-mail links to this page (renderRefpayEmail's storefrontUrl).
        await waitFor(
          async () =>
            (await sent(orderId, "refpay-payment-instructions")).some(
              (n) => n.data.reference === issued.refpay.reference && n.data.payment_collection_id === collectionId
            ),
          10_000,
          "the requested reference's e-mail naming its collection"
        )
        // Whoever holds the link learns the amount and how to pay it: not the order, the e-mail or the address.
        for (const answer of [before, first.data])
          expect(JSON.stringify(answer)).not.toMatch(new RegExp(`${orderId}|@|Lisboa`))

        const extra = await api
          .post(link, { payment_collection_id: collectionId }, storeHeaders())
          .catch((e: any) => e.response)
        const unknown = await api
          .get("/store/refpay/payment-collections/pay_col_01UNKNOWN", storeHeaders())
          .catch((e: any) => e.response)
        expect([extra.status, unknown.status]).toEqual([400, 404])

        await control("POST", `/payments/${issued.refpay.payment_id}/pay`)
        await waitFor(
          async () => (await api.get(link, storeHeaders())).data.payment_collection.state === "paid",
          20_000,
          "the payment link's collection paid"
        )
        expect((await api.get(link, storeHeaders())).data.payment_collection.refpay).toMatchObject({
          status: "paid",
          reference: issued.refpay.reference,
        })
      })

      it("answers 404 to the store for a draft order, and issues nothing for it", async () => {
        const draftId = await adminDraftOrder(ctx)
        const before = await platformPayments()
        const read = await api.get(requests(draftId), storeHeaders()).catch((e: any) => e.response)
        const asked = await api.post(requests(draftId), {}, storeHeaders()).catch((e: any) => e.response)
        const page = await api.get(`/store/refpay/orders/${draftId}`, storeHeaders()).catch((e: any) => e.response)
        expect([read.status, asked.status, page.status]).toEqual([404, 404, 404])
        expect(await platformPayments()).toBe(before)
      })
    })

    describe("REFPAY payment instructions e-mail on order.placed, through Medusa's Notification module", () => {
      const { api, adminHeaders, control, store } = ctx
      keepDatabaseBetweenTests()
      const notifications = () => ctx.getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION)
      const placedSubscribers = () =>
        TestEventUtils.waitSubscribersExecution("order.placed", ctx.getContainer().resolve(Modules.EVENT_BUS), {
          timeout: 60_000,
        })

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
        await ctx
          .getContainer()
          .resolve(Modules.EVENT_BUS)
          .emit({ name: "order.placed", data: { id: completion.order.id } })
        await again
        expect(await notifications().listNotifications({ resource_id: completion.order.id })).toHaveLength(1)
      })

      it("sends nothing for an order paid with another provider", async () => {
        const cart = await prepareCart(api, store())
        const { data } = await api.post("/store/payment-collections", { cart_id: cart.id }, ctx.storeHeaders())
        await api.post(
          `/store/payment-collections/${data.payment_collection.id}/payment-sessions`,
          { provider_id: "pp_system_default" },
          ctx.storeHeaders()
        )
        const placed = placedSubscribers()
        const completion = await completeCart(api, store(), cart.id)
        expect(completion.type).toBe("order")
        await placed
        expect(await notifications().listNotifications({ resource_id: completion.order.id })).toHaveLength(0)
      })
    })

    describe("the shop owner's numbers: conversion, what the plugin recovered, reconciliation, the accountant's CSV", () => {
      const { api, adminHeaders, control } = ctx
      const { orders, container, sessions, sent } = expirySuite(ctx)
      const pg = () => container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const numbers = async (view: string) => (await api.get(`/admin/refpay/numbers/${view}`, adminHeaders())).data

      /** An order whose reference the platform issued `daysAgo` days ago (its clock moved back, then forward). */
      async function placedDaysAgo(daysAgo: number) {
        if (daysAgo) await control("POST", "/clock", { advance_days: -daysAgo })
        try {
          return await orders.placeOrder()
        } finally {
          if (daysAgo) await control("POST", "/clock", { advance_days: daysAgo })
        }
      }
      async function pay(placed: { orderId: string; refpay: { payment_id: string } }, force = false) {
        await control("POST", `/payments/${placed.refpay.payment_id}/pay`, force ? { force: true } : {})
        return orders.waitForOrder(placed.orderId, (o) => captureCount(o) === 1)
      }
      const refpayOf = (session: any) =>
        session.data.refpay as { entity: string; reference: string; created_at: string }
      const lisbonDays = (from: string, to: Date) =>
        Math.round((Date.parse(lisbonDay(to)) - Date.parse(lisbonDay(new Date(from)))) / DAY)

      it("counts a known history: paid on day 0, 1 and 3, reminded and paid, expired, renewed and paid, paid late, cancelled, waiting, refunded", async () => {
        // Expired and renewed (the plugin's own expiry, a poll run past validity and grace), then the new one paid.
        const expiring = await orders.placeOrder()
        await pollRefpayPayments(container(), new Date(Date.now() + 7 * DAY + 25 * HOUR))
        const renewedOrder = await orders.waitForOrder(expiring.orderId, (o) =>
          sessions(o).some((s: any) => s.status === "pending_authorization" && s.data?.refpay)
        )
        const renewed = sessions(renewedOrder).find((s: any) => s.status === "pending_authorization")
        await pay({ orderId: expiring.orderId, refpay: renewed.data.refpay })

        // Issued six days and two hours ago: a check (the admin's "check now") reminds the customer, who then pays.
        const reminded = await placedDaysAgo(6 + 2 / 24)
        await api.post(`/admin/refpay/orders/${reminded.orderId}/sync`, {}, adminHeaders())
        expect(await sent(reminded.orderId, "refpay-payment-reminder")).toHaveLength(1)
        await pay(reminded)

        const [sameDay, nextDay, threeDays] = [await placedDaysAgo(0), await placedDaysAgo(1), await placedDaysAgo(3)]
        for (const placed of [sameDay, nextDay, threeDays]) await pay(placed)

        // Paid after its order was cancelled: recorded, flagged, kept (automatic refunds are off).
        const late = await orders.placeOrder()
        await api.post(`/admin/orders/${late.orderId}/cancel`, {}, adminHeaders())
        await orders.waitForOrder(late.orderId, (o) => sessions(o).every((s: any) => s.status === "canceled"))
        await pay(late, true)

        const cancelled = await orders.placeOrder()
        await api.post(`/admin/orders/${cancelled.orderId}/cancel`, {}, adminHeaders())
        await orders.waitForOrder(cancelled.orderId, (o) => sessions(o).every((s: any) => s.status === "canceled"))
        const waiting = await orders.placeOrder()
        // The numbers count a reference once the poll job watches it: at most one poll run after its order.
        await pollRefpayPayments(container(), new Date())

        // 10.00 refunded through Medusa (and on the platform); then the platform's refunded total, as the plugin
        // last read it, disagrees for another payment: a difference the reconciliation must list.
        const sameDayPayment = (await orders.adminOrder(sameDay.orderId)).payment_collections[0].payments[0]
        await api.post(`/admin/payments/${sameDayPayment.id}/refund`, { amount: 10 }, adminHeaders())
        const nextDaySession = sessions(await orders.adminOrder(nextDay.orderId))[0]
        await pg().raw(
          `update payment_session set data = jsonb_set(data, '{refpay,refunded_cents}', '500') where id = ?`,
          [nextDaySession.id]
        )
        // As the sync does after each check it records (the SQL above stands for what a check read).
        await refreshReferenceCopies(container(), [nextDaySession.id])

        const paidOrders = [
          renewedOrder.id,
          reminded.orderId,
          sameDay.orderId,
          nextDay.orderId,
          threeDays.orderId,
          late.orderId,
        ]
        const read = async (orderId: string) => {
          const order = await orders.adminOrder(orderId)
          const paidSession = sessions(order).find((s: any) => s.status === "authorized")
          return { order, paidSession, payment: order.payment_collections[0].payments[0] }
        }
        const paid = await Promise.all(paidOrders.map(read))
        const cents = (n: number) => n * 2498

        const { conversion } = await numbers("conversion")
        expect(conversion).toMatchObject({
          issued: { count: 9, amount_cents: cents(9) },
          paid: { count: 6, amount_cents: cents(6) },
          waiting: { count: 1, amount_cents: cents(1) },
          expired: { count: 1, amount_cents: cents(1) },
          renewed: { count: 1, amount_cents: cents(1) },
          cancelled: { count: 1, amount_cents: cents(1) },
          paid_share: 0.6667,
        })
        const expectedWaits = new Map<string, number>()
        for (const { paidSession, payment } of paid) {
          const bucket = timeToPayBucket(lisbonDays(refpayOf(paidSession).created_at, new Date(payment.captured_at)))
          expectedWaits.set(bucket, (expectedWaits.get(bucket) ?? 0) + 1)
        }
        expect(Object.fromEntries(conversion.time_to_pay.map((b: any) => [b.days, b.count]))).toEqual(
          Object.fromEntries(TIME_TO_PAY_BUCKETS.map((b) => [b, expectedWaits.get(b) ?? 0]))
        )
        expect([...expectedWaits.keys()].sort()).toEqual(expect.arrayContaining(["0", "1", "3"]))
        const issuedDays = new Map<string, number>()
        const allSessions = (
          await Promise.all(
            [...paidOrders, expiring.orderId, cancelled.orderId, waiting.orderId]
              .filter((id, i, all) => all.indexOf(id) === i)
              .map(async (id) => sessions(await orders.adminOrder(id)))
          )
        ).flat()
        for (const session of allSessions) {
          const day = lisbonDay(new Date(refpayOf(session).created_at))
          issuedDays.set(day, (issuedDays.get(day) ?? 0) + 1)
        }
        expect(conversion.per_day).toHaveLength(30)
        const today = lisbonDay(new Date())
        for (const { day, issued, paid: paidThatDay } of conversion.per_day)
          expect({ day, issued, paid: paidThatDay }).toEqual({
            day,
            issued: issuedDays.get(day) ?? 0,
            paid: day === today ? 6 : 0,
          })

        const { recovered } = await numbers("recovered")
        expect(recovered).toEqual({
          paid_after_reminder: { count: 1, amount_cents: cents(1) },
          paid_on_renewed_reference: { count: 1, amount_cents: cents(1) },
          late_payments_refunded: { count: 0, amount_cents: 0 },
          late_payments_recorded: { count: 1, amount_cents: cents(1) },
        })

        const { reconciliation } = await numbers("reconciliation")
        expect(reconciliation.per_day.find((d: any) => d.day === today)).toEqual({
          day: today,
          medusa_captured_cents: cents(6),
          medusa_refunded_cents: 1000,
          platform_approved_cents: cents(6),
          platform_refunded_cents: 1500,
        })
        const nextDayOrder = paid.find((p) => p.order.id === nextDay.orderId)!.order
        expect(reconciliation.differences).toEqual([
          {
            order_id: nextDay.orderId,
            order_display_id: nextDayOrder.display_id,
            session_id: nextDaySession.id,
            entity: refpayOf(nextDaySession).entity,
            reference: refpayOf(nextDaySession).reference,
            paid_day: today,
            medusa_captured_cents: 2498,
            medusa_refunded_cents: 0,
            platform_approved_cents: 2498,
            platform_refunded_cents: 500,
          },
        ])

        // The accountant's CSV: every reference issued in the period, oldest first.
        const csv = await api.get(`/admin/refpay/numbers/export`, { ...adminHeaders(), responseType: "arraybuffer" })
        expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8")
        expect(csv.headers["content-disposition"]).toMatch(
          /^attachment; filename="refpay-refpay-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"$/
        )
        const orderOfSession = new Map<string, any>()
        for (const id of [...paidOrders, expiring.orderId, cancelled.orderId, waiting.orderId]) {
          const order = await orders.adminOrder(id)
          for (const session of sessions(order)) orderOfSession.set(session.id, order)
        }
        const state = (session: any, order: any) => {
          const payment = order.payment_collections[0].payments.find((p: any) => p.payment_session_id === session.id)
          if (payment) return payment.refunds?.length ? "parcialmente reembolsado" : "pago"
          if (session.data.expired_at) return "expirada"
          return session.status === "canceled" ? "cancelada" : "a aguardar pagamento"
        }
        const lines = [...orderOfSession.entries()]
          .map(([, order]) => order)
          .flatMap((order) => sessions(order).map((session: any) => ({ order, session })))
          .filter((row, i, all) => all.findIndex((r) => r.session.id === row.session.id) === i)
          .sort(
            (a, b) =>
              Date.parse(refpayOf(a.session).created_at) - Date.parse(refpayOf(b.session).created_at) ||
              (a.session.id < b.session.id ? -1 : 1)
          )
          .map(({ order, session }) => {
            const payment = order.payment_collections[0].payments.find((p: any) => p.payment_session_id === session.id)
            const refunded = payment?.refunds?.length ? "10,00" : "0,00"
            const platformRefunded = session.id === nextDaySession.id ? "5,00" : refunded
            const platformStatus = (session.data.refpay.status as string) ?? ""
            return [
              order.display_id,
              refpayOf(session).entity,
              refpayOf(session).reference.replace(/(\d{3})(?=\d)/g, "$1 "),
              "24,98",
              payment ? "24,98" : "0,00",
              refunded,
              state(session, order),
              session.data.refpay.platform_amount_cents === undefined ? "" : "24,98",
              platformRefunded,
              platformStatus,
              lisbonDateTime(new Date(refpayOf(session).created_at)),
              payment ? lisbonDateTime(new Date(payment.captured_at)) : "",
            ].join(";")
          })
        expect(Buffer.from(csv.data).toString("utf8")).toBe(
          "\uFEFFEncomenda;Entidade;Referência;Valor (EUR);Capturado no Medusa (EUR);Reembolsado no Medusa (EUR);" +
            "Estado no Medusa;Valor aprovado na plataforma (EUR);Reembolsado na plataforma (EUR);Estado na plataforma;" +
            `Emitida em (Lisboa);Paga em (Lisboa)\r\n${lines.join("\r\n")}\r\n`
        )
      })

      it("refuses a period that ends before it starts, or one longer than 367 days", async () => {
        for (const query of ["from=2026-11-02&to=2026-11-01", "from=2025-01-01&to=2026-01-03", "from=2026-13-01"]) {
          const answer = await api
            .get(`/admin/refpay/numbers/conversion?${query}`, adminHeaders())
            .catch((e: any) => e.response)
          expect({ query, status: answer.status }).toEqual({ query, status: 400 })
        }
      })
    })
  },
  { env: { REFPAY_TEST_NOTIFICATIONS: "local", REFPAY_POLL_INTERVAL_MINUTES: "10" } }
)

import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { IEventBusModuleService, IPaymentModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { PAID_AFTER_CANCELLATION_EVENT } from "../../src/sync-triggers/sync-payment"
import { MAX_NEW_CHECKS_PER_RUN, pollRefpayPayments, NEW_CHECKS_PAGE_SIZE } from "../../src/sync-triggers/poll/poll"
import {
  ADMIN_SUITE_WEBHOOK_SECRET,
  adminSuiteOptions,
  expectNoCredential,
  refpayAdminApi,
} from "../fixtures/refpay-admin"
import { payments, refpayOrders, session } from "../fixtures/refpay-orders"
import { waitFor } from "../fixtures/wait"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(120 * 1000)

const STATUS_PATH = "/dpm/hub-payment-info/v1/payments/info/"
const HOUR = 3_600_000
/** More than PostgreSQL takes as the parameters of one statement (65,535). */
const SEEDED_SESSIONS = 70_000
/** Seeded sessions the poll job has not started watching yet: two poll runs' worth (MAX_NEW_CHECKS_PER_RUN each). */
const UNWATCHED = 10_000

/**
 * Watches every statement the app sends to PostgreSQL: Medusa's modules, MikroORM and the plugin's SQL all go through
 * knex's PostgreSQL client, whose `_query` is wrapped here. Records the longest statement (MikroORM writes a filter's
 * values into the SQL text: an id list grows the text, not the bindings), the most bindings one statement carried and
 * the most rows one answer held.
 */
function watchStatements() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const PgClient = require("knex/lib/dialects/postgres") as {
    prototype: { _query: (connection: unknown, obj: any) => Promise<any> }
  }
  const original = PgClient.prototype._query
  const seen = { statements: 0, maxSqlChars: 0, maxBindings: 0, maxRows: 0, widest: "", checkInserts: 0 }
  PgClient.prototype._query = function (connection: unknown, obj: { sql: string; bindings?: unknown[] }) {
    seen.statements++
    if (/^insert into "refpay_payment_check"/i.test(obj.sql)) seen.checkInserts++
    seen.maxSqlChars = Math.max(seen.maxSqlChars, obj.sql.length)
    const bindings = obj.bindings?.length ?? 0
    if (bindings > seen.maxBindings) Object.assign(seen, { maxBindings: bindings, widest: obj.sql.slice(0, 160) })
    return original.call(this, connection, obj).then((done: { response?: { rows?: unknown[] } }) => {
      seen.maxRows = Math.max(seen.maxRows, done?.response?.rows?.length ?? 0)
      return done
    })
  }
  return { seen, stop: () => void (PgClient.prototype._query = original) }
}

refpayIntegrationSuite(
  "REFPAY admin page: payments that need attention, and search by reference",
  (ctx) => {
    const { api, adminHeaders, control } = ctx
    const admin = refpayAdminApi(ctx)
    const { placeOrder, waitForOrder, adminOrder, shopUrl } = refpayOrders(ctx)
    const checkNow = (orderId: string) =>
      api.post(`/admin/refpay/orders/${orderId}/sync`, {}, adminHeaders()).catch((e: any) => e.response)
    const pg = () => ctx.getContainer().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)

    async function cancelOrder(orderId: string, paymentId: string) {
      await api.post(`/admin/orders/${orderId}/cancel`, {}, adminHeaders())
      await waitFor(
        async () => (await control("GET", `/payments/${paymentId}`)).status === "CANCELLED",
        20_000,
        "the reference cancelled"
      )
      await waitForOrder(orderId, (o) => session(o).status === "canceled")
    }

    it("lists waiting references that expire within 24 hours, with their order, and not a cancelled or a paid one", async () => {
      const waiting = await placeOrder()
      const cancelled = await placeOrder()
      await cancelOrder(cancelled.orderId, cancelled.refpay.payment_id)
      const paid = await placeOrder()
      await control("POST", `/payments/${paid.refpay.payment_id}/pay`)
      expect((await checkNow(paid.orderId)).data.action).toBe("capture")
      // The poll job starts watching a new reference at its next poll run (the list reads the validity it records).
      await pollRefpayPayments(ctx.getContainer())

      const { status, data } = await admin.attentionList("expiring")
      expect(status).toBe(200)
      expect(data).toMatchObject({ kind: "expiring", count: 1, limit: 20, offset: 0 })
      const [row] = data.payments
      const platform = await control("GET", `/payments/${waiting.refpay.payment_id}`)
      expect(row).toMatchObject({
        order: {
          id: waiting.orderId,
          display_id: expect.any(Number),
          status: "pending",
          email: "maria.silva@example.com",
        },
        refpay_payment_id: waiting.refpay.payment_id,
        entity: platform.additional_data.entity,
        reference: platform.additional_data.reference,
        amount_cents: 2498,
        platform_status: "WAITING",
        session_status: "pending_authorization",
        payment: null,
        paid_after_cancellation_at: null,
      })
      expect(row.amount_display.replace(/\u00a0/g, " ")).toBe("24,98 €")
      const left = Date.parse(row.expires_at) - Date.now()
      expect(left).toBeGreaterThan(20 * HOUR)
      expect(left).toBeLessThanOrEqual(24 * HOUR)

      const counts = (await admin.attention()).data
      expect(counts).toEqual({
        counts: {
          expiring: 1,
          paid_after_cancellation: 0,
          refund_mismatch: 0,
          amount_mismatch: 0,
          unknown_payment: 0,
          platform_error: 0,
          paid_after_session_deleted: 0,
        },
        total: 1,
      })
      expectNoCredential(data)
    })

    it("lists a payment received after its order was cancelled until it is refunded from the list, then drops it", async () => {
      const late = await placeOrder()
      await cancelOrder(late.orderId, late.refpay.payment_id)
      await control("POST", `/payments/${late.refpay.payment_id}/pay`, { force: true })
      expect((await checkNow(late.orderId)).data.action).toBe("capture_late")

      const { data } = await admin.attentionList("paid_after_cancellation")
      expect(data.count).toBe(1)
      const [row] = data.payments
      expect(row).toMatchObject({
        order: { id: late.orderId, status: "canceled" },
        paid_after_cancellation_at: expect.any(String),
        payment: {
          id: expect.stringMatching(/^pay_/),
          captured_cents: 2498,
          refunded_cents: 0,
          refundable_cents: 2498,
        },
      })
      expect((await admin.attention()).data.counts.paid_after_cancellation).toBe(1)

      // The page's "Refund", after a confirmation: everything still held goes back, on the platform and in Medusa.
      const refund = await admin.refundLatePayment(row.payment_session_id)
      expect(refund.status).toBe(200)
      expect(refund.data.refund).toEqual({ payment_id: row.payment.id, order_id: late.orderId, refunded_cents: 2498 })
      expect((await control("GET", `/payments/${late.refpay.payment_id}`)).refunded_amount).toBe("2498")
      const order = await adminOrder(late.orderId)
      expect(payments(order)[0].refunds.map((r: any) => Number(r.amount))).toEqual([24.98])
      expect(session(order).data.paid_after_cancellation_at).toBeTruthy()
      expect((await admin.attentionList("paid_after_cancellation")).data).toMatchObject({ count: 0, payments: [] })
      expect((await admin.attention()).data.counts.paid_after_cancellation).toBe(0)
      // Refunded in Medusa and on the platform alike (the provider wrote the platform's total in the payment's data).
      expect((await admin.attention()).data.counts.refund_mismatch).toBe(0)

      // Twice is refused, and so is a payment that was not received after cancellation.
      const again = await admin.refundLatePayment(row.payment_session_id)
      expect(again.status).toBe(400)
      expect(again.data.message).toMatch(/Nothing is left to refund/)
      const paid = await placeOrder()
      await control("POST", `/payments/${paid.refpay.payment_id}/pay`)
      await checkNow(paid.orderId)
      const ordinary = await admin.refundLatePayment(session(await adminOrder(paid.orderId)).id)
      expect(ordinary.status).toBe(400)
      expect(ordinary.data.message).toMatch(/Only a payment received after its order was cancelled/)
      expect((await control("GET", `/payments/${paid.refpay.payment_id}`)).refunded_amount).toBe("0")
      expect((await admin.refundLatePayment("payses_unknown")).status).toBe(404)
    })

    it("reads a payment check with its Medusa payment session through the read-only link (query.graph), and none once Medusa deleted the session", async () => {
      const order = await placeOrder()
      const sessionId = session(await adminOrder(order.orderId)).id
      const query = ctx.getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const linked = async () =>
        (
          await query.graph({
            entity: "refpay_payment_check",
            fields: [
              "session_id",
              "provider_id",
              "payment_session.id",
              "payment_session.status",
              "payment_session.data",
            ],
            filters: { session_id: sessionId },
          })
        ).data
      // "Check now" records the session's payment check.
      expect((await checkNow(order.orderId)).status).toBe(200)
      const [check] = await linked()
      expect(check).toMatchObject({
        session_id: sessionId,
        provider_id: "pp_refpay_refpay",
        payment_session: {
          id: sessionId,
          status: "pending_authorization",
          data: { refpay: expect.objectContaining({ payment_id: order.refpay.payment_id }) },
        },
      })
      await ctx.getContainer().resolve<IPaymentModuleService>(Modules.PAYMENT).deletePaymentSession(sessionId)
      const [orphan] = await linked()
      expect(orphan).toMatchObject({ session_id: sessionId })
      expect(orphan!.payment_session ?? null).toBeNull()
    })

    it("still finds, flags and refunds a late payment of a cancelled reference whose session Medusa deleted anyway, from the plugin's own record", async () => {
      const late = await placeOrder()
      await cancelOrder(late.orderId, late.refpay.payment_id)
      const announced: any[] = []
      ctx
        .getContainer()
        .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
        .subscribe(PAID_AFTER_CANCELLATION_EVENT, async (event: any) => {
          announced.push(event.data)
        })
      // Medusa's payment module deletes the session (what its store route or a "pay again" step does), then the
      // customer's payment of the cancelled reference settles late.
      const sessionId = session(await adminOrder(late.orderId)).id
      await ctx.getContainer().resolve<IPaymentModuleService>(Modules.PAYMENT).deletePaymentSession(sessionId)
      await control("POST", `/payments/${late.refpay.payment_id}/pay`, { force: true })

      const check = await checkNow(late.orderId)
      expect(check.status).toBe(200)
      expect(check.data.action).toBe("flag_late")
      await waitFor(async () => announced.length > 0, 10_000, "the late payment announced")
      expect(announced[0]).toMatchObject({ order_id: late.orderId, payment_session_id: sessionId, amount_cents: 2498 })

      const { data } = await admin.attentionList("paid_after_session_deleted")
      expect(data.count).toBe(1)
      expect(data.payments[0]).toMatchObject({
        payment_session_id: sessionId,
        session_status: "deleted",
        order: { id: late.orderId, status: "canceled" },
        refpay_payment_id: late.refpay.payment_id,
        amount_cents: 2498,
        payment: null,
      })
      expect((await admin.attention()).data.counts.paid_after_session_deleted).toBe(1)

      const refund = await admin.refundLatePayment(sessionId)
      expect(refund.status).toBe(200)
      expect(refund.data.refund).toEqual({ payment_id: null, order_id: late.orderId, refunded_cents: 2498 })
      expect((await control("GET", `/payments/${late.refpay.payment_id}`)).refunded_amount).toBe("2498")
      expect((await admin.attention()).data.counts.paid_after_session_deleted).toBe(0)
      expect((await admin.refundLatePayment(sessionId)).status).toBe(400)
    })

    it("finds the late payment of a deleted session through a webhook and the poll job too", async () => {
      const late = await placeOrder()
      await cancelOrder(late.orderId, late.refpay.payment_id)
      const sessionId = session(await adminOrder(late.orderId)).id
      await ctx.getContainer().resolve<IPaymentModuleService>(Modules.PAYMENT).deletePaymentSession(sessionId)
      // The payment's webhook reaches the plugin's route.
      await control("POST", "/webhooks/config", {
        url: `${shopUrl()}/hooks/refpay`,
        secret: ADMIN_SUITE_WEBHOOK_SECRET,
      })
      await control("POST", `/payments/${late.refpay.payment_id}/pay`, { force: true })
      await waitFor(
        async () => (await admin.attention()).data.counts.paid_after_session_deleted === 1,
        20_000,
        "the webhook's late payment flagged"
      )
      const other = await placeOrder()
      await cancelOrder(other.orderId, other.refpay.payment_id)
      const otherSession = session(await adminOrder(other.orderId)).id
      await ctx.getContainer().resolve<IPaymentModuleService>(Modules.PAYMENT).deletePaymentSession(otherSession)
      await control("POST", "/webhooks/config", { url: null })
      await control("POST", `/payments/${other.refpay.payment_id}/pay`, { force: true })
      await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + 2 * HOUR))
      expect((await admin.attention()).data.counts.paid_after_session_deleted).toBe(2)
    })

    it("lists amount mismatches, references the platform does not know and failed checks, from each payment's last check, page by page", async () => {
      const mismatch = await placeOrder()
      const unknownA = await placeOrder()
      const unknownB = await placeOrder()
      const failing = await placeOrder()
      await control("POST", "/faults", {
        path: `${STATUS_PATH}${mismatch.refpay.payment_id}`,
        method: "GET",
        count: 100,
        status: 200,
        body: {
          payment_id: mismatch.refpay.payment_id,
          order_id: mismatch.refpay.order_id,
          status: "APPROVED",
          amount: "2499",
          refunded_amount: "0",
          currency: "EUR",
        },
      })
      for (const unknown of [unknownA, unknownB]) {
        await control("POST", "/faults", {
          path: `${STATUS_PATH}${unknown.refpay.payment_id}`,
          method: "GET",
          count: 100,
          status: 404,
        })
      }
      await control("POST", "/faults", {
        path: `${STATUS_PATH}${failing.refpay.payment_id}`,
        method: "GET",
        count: 100,
        status: 503,
      })

      expect((await checkNow(mismatch.orderId)).data.action).toBe("amount_mismatch")
      expect((await checkNow(unknownA.orderId)).status).toBe(400)
      expect((await checkNow(unknownB.orderId)).status).toBe(400)
      expect((await checkNow(failing.orderId)).status).toBeGreaterThanOrEqual(400)

      const mismatches = (await admin.attentionList("amount_mismatch")).data
      expect(mismatches).toMatchObject({
        count: 1,
        payments: [{ order: { id: mismatch.orderId }, last_check: { outcome: "amount_mismatch", failures: 0 } }],
      })
      const failed = (await admin.attentionList("platform_error")).data
      expect(failed).toMatchObject({
        count: 1,
        payments: [{ order: { id: failing.orderId }, last_check: { outcome: "platform_error", failures: 1 } }],
      })
      expect(Date.now() - Date.parse(failed.payments[0].last_check.checked_at)).toBeLessThan(60_000)

      const unknown = (await admin.attentionList("unknown_payment")).data
      expect(unknown.count).toBe(2)
      expect(unknown.payments.map((p: any) => p.order.id).sort()).toEqual([unknownA.orderId, unknownB.orderId].sort())
      const first = (await admin.attentionList("unknown_payment", "limit=1")).data
      const second = (await admin.attentionList("unknown_payment", "limit=1&offset=1")).data
      expect([first.count, second.count]).toEqual([2, 2])
      expect([first.payments[0].order.id, second.payments[0].order.id].sort()).toEqual(
        [unknownA.orderId, unknownB.orderId].sort()
      )

      expect((await admin.attention()).data).toEqual({
        // The four references are still waiting, and valid for one day only in this suite.
        counts: {
          expiring: 4,
          paid_after_cancellation: 0,
          refund_mismatch: 0,
          amount_mismatch: 1,
          unknown_payment: 2,
          platform_error: 1,
          paid_after_session_deleted: 0,
        },
        total: 8,
      })
      expect((await admin.attentionList("everything")).status).toBe(404)
      expect((await admin.attentionList("expiring", "limit=0")).status).toBe(400)
      expectNoCredential([mismatches, failed, unknown])
    })

    it("lists a captured payment whose refunded total in Medusa differs from the platform's, in either direction, and not one whose totals agree", async () => {
      const platformRefunded = await placeOrder()
      const agreed = await placeOrder()
      for (const order of [platformRefunded, agreed]) {
        await control("POST", `/payments/${order.refpay.payment_id}/pay`)
        expect((await checkNow(order.orderId)).data.action).toBe("capture")
      }
      expect((await admin.attentionList("refund_mismatch")).data).toMatchObject({
        kind: "refund_mismatch",
        count: 0,
        payments: [],
      })

      // A Medusa refund of 5.00 EUR, made on the platform by the provider: the platform's total is in the payment's
      // data only (the session's still says 0), and the two agree.
      const agreedPayment = payments(await adminOrder(agreed.orderId))[0]
      const refund = await api
        .post(`/admin/payments/${agreedPayment.id}/refund`, { amount: 5 }, adminHeaders())
        .catch((e: any) => e.response)
      expect(refund.status).toBe(200)
      expect((await control("GET", `/payments/${agreed.refpay.payment_id}`)).refunded_amount).toBe("500")
      expect((await admin.attention()).data.counts.refund_mismatch).toBe(0)

      // The platform refunded 10.00 EUR (as the sync last read it) that Medusa never recorded.
      const sessionId = session(await adminOrder(platformRefunded.orderId)).id
      await pg().raw(
        `update payment_session set data = jsonb_set(data, '{refpay,refunded_cents}', '1000') where id = ?`,
        [sessionId]
      )
      const one = (await admin.attentionList("refund_mismatch")).data
      expect(one).toMatchObject({ count: 1, limit: 20, offset: 0 })
      expect(one.payments).toEqual([
        expect.objectContaining({
          payment_session_id: sessionId,
          order: expect.objectContaining({ id: platformRefunded.orderId }),
          payment: expect.objectContaining({ captured_cents: 2498, refunded_cents: 0 }),
          platform_refunded_cents: 1000,
        }),
      ])

      // Medusa holds a refund the platform never made (its total as last read is 0 in both places).
      await pg().raw(`update payment set data = jsonb_set(data, '{refpay,refunded_cents}', '0') where id = ?`, [
        agreedPayment.id,
      ])
      const both = (await admin.attentionList("refund_mismatch")).data
      expect(both.count).toBe(2)
      expect(both.payments.map((p: any) => p.order.id).sort()).toEqual(
        [platformRefunded.orderId, agreed.orderId].sort()
      )
      expect(both.payments.find((p: any) => p.order.id === agreed.orderId)).toMatchObject({
        payment: { captured_cents: 2498, refunded_cents: 500 },
        platform_refunded_cents: 0,
      })
      const pages = [
        (await admin.attentionList("refund_mismatch", "limit=1")).data,
        (await admin.attentionList("refund_mismatch", "limit=1&offset=1")).data,
      ]
      expect(pages.map((page) => [page.count, page.payments.length])).toEqual([
        [2, 1],
        [2, 1],
      ])
      expect(pages.map((page) => page.payments[0].order.id)).toEqual(both.payments.map((p: any) => p.order.id))
      expect((await admin.attention()).data).toMatchObject({ counts: { refund_mismatch: 2, expiring: 0 }, total: 2 })
      expectNoCredential(both)
    })

    it(`answers the counts, pages the lists and runs a poll run with ${SEEDED_SESSIONS} waiting references (more than PostgreSQL's 65,535 parameters of one statement), no statement's text, bindings or rows growing with them`, async () => {
      const { orderId } = await placeOrder()
      const model = session(await adminOrder(orderId)).id
      expect((await checkNow(orderId)).data.action).toBe("record_check") // watched, with its validity
      // Seeded with SQL: copies of a real session, in a payment collection of their own, waiting and expiring within a
      // day; all but UNWATCHED already watched by the poll job (their check records as it writes them).
      const watchedSeeded = SEEDED_SESSIONS - UNWATCHED
      const seeding = Date.now()
      await pg().raw(
        `insert into payment_collection (id, currency_code, amount, raw_amount, status, created_at, updated_at)
         values ('pay_col_seeded', 'eur', 24.98, '{"value": "24.98", "precision": 20}', 'not_paid', now(), now())`
      )
      await pg().raw(
        `insert into payment_session (id, currency_code, amount, raw_amount, provider_id, data, context, status, payment_collection_id, created_at, updated_at)
         select 'payses_seeded_' || lpad(g::text, 6, '0'), ps.currency_code, ps.amount, ps.raw_amount, ps.provider_id,
                jsonb_set(ps.data, '{session_id}', to_jsonb('payses_seeded_' || lpad(g::text, 6, '0'))), ps.context,
                'pending_authorization', 'pay_col_seeded', now(), now()
           from payment_session ps, generate_series(1, ?::int) g
          where ps.id = ?`,
        [SEEDED_SESSIONS, model]
      )
      await pg().raw(
        `insert into refpay_payment_check (id, session_id, provider_id, check_until, next_check_at, failures, expires_at, created_at, updated_at)
         select 'rpchk_seeded_' || lpad(g::text, 6, '0'), 'payses_seeded_' || lpad(g::text, 6, '0'), c.provider_id,
                c.check_until, now() + interval '1 hour', 0, c.expires_at, now(), now()
           from refpay_payment_check c, generate_series(1, ?::int) g
          where c.session_id = ?`,
        [watchedSeeded, model]
      )
      const seedMs = Date.now() - seeding

      // Each step under the statement spy; its figures are printed before they are checked.
      async function step<T>(
        name: string,
        run: () => Promise<T>
      ): Promise<{ result: T; seen: ReturnType<typeof watchStatements>["seen"] }> {
        const statements = watchStatements()
        const started = Date.now()
        try {
          const result = await run()
          return { result, seen: statements.seen }
        } finally {
          statements.stop()
          process.stdout.write(
            `bounded queries, ${name}: ${Date.now() - started} ms, ${JSON.stringify(statements.seen)}\n`
          )
        }
      }
      const expectBounded = (seen: { maxSqlChars: number; maxBindings: number; maxRows: number; widest: string }) => {
        expect(seen.maxBindings <= 10_000 ? "bounded" : `${seen.maxBindings} bindings: ${seen.widest}`).toBe("bounded")
        // A page of 500 ids written into the text is about 20,000 characters; 70,000 of them would be 2.5 million.
        expect(seen.maxSqlChars).toBeLessThanOrEqual(250_000)
        expect(seen.maxRows).toBeLessThanOrEqual(NEW_CHECKS_PAGE_SIZE)
      }
      process.stdout.write(`bounded queries: ${SEEDED_SESSIONS} sessions seeded in ${seedMs} ms\n`)

      const counts = await step<any>("counts", () => admin.attention())
      expect(counts.result.status).toBe(200)
      expect(counts.result.data.counts.expiring).toBe(watchedSeeded + 1)
      expectBounded(counts.seen)

      const last = await step<any>("last page", () =>
        admin.attentionList("expiring", `limit=100&offset=${watchedSeeded - 50}`)
      )
      expect(last.result.status).toBe(200)
      expect(last.result.data).toMatchObject({ count: watchedSeeded + 1, offset: watchedSeeded - 50 })
      expect(last.result.data.payments).toHaveLength(51)
      expect(new Set(last.result.data.payments.map((p: any) => p.payment_session_id)).size).toBe(51)
      expectBounded(last.seen)

      // The poll run starts watching new sessions a bounded batch at a time (none is due yet: first check in 10 min).
      const pollRun = await step("poll run", () => pollRefpayPayments(ctx.getContainer()))
      expectBounded(pollRun.seen)
      // The spy saw MikroORM's statements too (the check records the poll run wrote).
      expect(pollRun.seen.checkInserts).toBeGreaterThan(0)
      const watched = Number(
        (
          await pg().raw(
            `select count(*)::int as n from refpay_payment_check
              where session_id like 'payses_seeded_%' and id not like 'rpchk_seeded_%' and deleted_at is null`
          )
        ).rows[0].n
      )
      process.stdout.write(`bounded queries: ${watched} seeded sessions watched after the poll run\n`)
      // One batch (the order placed above may take one place in it); Medusa's own scheduled poll run may have run one too.
      expect(watched).toBeGreaterThanOrEqual(MAX_NEW_CHECKS_PER_RUN - 1)
      expect(watched).toBeLessThanOrEqual(2 * MAX_NEW_CHECKS_PER_RUN)

      expect(counts.result.data.counts).toMatchObject({ paid_after_cancellation: 0, refund_mismatch: 0 })
    }, 300_000)

    it("finds the order of a reference a customer quotes, exactly as text (leading zeros matter), with or without the entity", async () => {
      await control("POST", "/next-reference", { entity: "01234", reference: "000123450" })
      const older = await placeOrder()
      // A restarted platform may issue the same reference again under another entity.
      await control("POST", "/reset")
      await control("POST", "/next-reference", { entity: "98765", reference: "000123450" })
      const newer = await placeOrder()
      const other = await placeOrder()

      const both = (await admin.search({ reference: "000123450" })).data
      expect(both).toMatchObject({ count: 2, limit: 20, offset: 0 })
      expect(both.payments.map((p: any) => [p.order.id, p.entity, p.reference])).toEqual([
        [newer.orderId, "98765", "000123450"],
        [older.orderId, "01234", "000123450"],
      ])
      expect(
        (await admin.search({ reference: "000123450", entity: "01234" })).data.payments.map((p: any) => p.order.id)
      ).toEqual([older.orderId])
      expect(
        (await admin.search({ reference: "000 123 450", entity: "98765" })).data.payments.map((p: any) => p.order.id)
      ).toEqual([newer.orderId])
      for (const near of [
        { reference: "123450" },
        { reference: "00123450" },
        { reference: "0001234500" },
        { reference: "000123450", entity: "1234" },
      ]) {
        expect({ near, count: (await admin.search(near)).data.count }).toEqual({ near, count: 0 })
      }
      const otherReference = (await control("GET", `/payments/${other.refpay.payment_id}`)).additional_data.reference
      expect((await admin.search({ reference: otherReference })).data.payments.map((p: any) => p.order.id)).toEqual([
        other.orderId,
      ])

      expect(
        (await admin.search({ reference: "000123450", limit: "1", offset: "1" })).data.payments.map(
          (p: any) => p.order.id
        )
      ).toEqual([older.orderId])
      expect((await admin.get("/admin/refpay/search")).status).toBe(400)
      expect((await admin.search({ reference: " " })).status).toBe(400)
      expectNoCredential(both)
    })

    it("finds an order by the reference it had before a renewal, and by its new one", async () => {
      await control("POST", "/webhooks/config", {
        url: `${refpayOrders(ctx).shopUrl()}/hooks/refpay`,
        secret: ADMIN_SUITE_WEBHOOK_SECRET,
      })
      const { orderId } = await placeOrder()
      const first = (
        await admin.search({ reference: (await control("GET", "/payments")).payments[0].additional_data.reference })
      ).data
      expect(first.payments.map((p: any) => p.order.id)).toEqual([orderId])
      const oldReference = first.payments[0].reference

      // The reference expires on the platform; the shop issues a new one on the same order (REFPAY_EXPIRY_POLICY=renew).
      await control("POST", "/clock", { advance_days: 2 })
      const renewed = await waitForOrder(
        orderId,
        (o) =>
          o.payment_collections[0].payment_sessions.some(
            (s: any) =>
              s.status === "pending_authorization" && s.data?.refpay?.reference !== oldReference && s.data?.refpay
          ),
        60_000
      )
      const newReference = renewed.payment_collections[0].payment_sessions.find(
        (s: any) => s.data?.refpay?.reference !== oldReference && s.data?.refpay
      ).data.refpay.reference

      const old = (await admin.search({ reference: oldReference })).data
      expect(old.payments).toEqual([
        expect.objectContaining({ order: expect.objectContaining({ id: orderId }), reference: oldReference }),
      ])
      expect(old.payments[0].session_status).not.toBe("pending_authorization")
      const current = (await admin.search({ reference: newReference })).data
      expect(current.payments).toEqual([
        expect.objectContaining({
          order: expect.objectContaining({ id: orderId }),
          reference: newReference,
          session_status: "pending_authorization",
        }),
      ])
    })
  },
  // References valid for one day, on the shop and on the sandbox: every waiting one expires within 24 hours.
  adminSuiteOptions({ REFPAY_EXPIRY_DAYS: "1" }, { expiryDays: 1 })
)

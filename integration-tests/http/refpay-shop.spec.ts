import { randomUUID } from "node:crypto"
import { withAmountLimits, type AmountLimitSettings } from "../fixtures/amount-limits"
import type { IEventBusModuleService, INotificationModuleService, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { TestEventUtils } from "@medusajs/test-utils"
import { Client as PgClient } from "@medusajs/framework/pg"
import { restoreCounts } from "../fixtures/data-restore"
import { migratedTemplateName } from "../fixtures/migrated-database"
import { itOnSeededDatabase, keepDatabaseBetweenTests } from "../fixtures/database-restore"
import { completeCart, LISBON_ADDRESS, placeRefpayOrder, prepareCart, selectRefpay } from "../fixtures/checkout"
import { captureCount, payments, refpayOrders, refundCutShort, refundedTotal, session } from "../fixtures/refpay-orders"
import { REFPAY_PROVIDER_ID } from "../fixtures/store"
import { waitFor } from "../fixtures/wait"
import { processWebhookLikeCore } from "../fixtures/webhooks"
import { refpayIntegrationSuite, TEST_WEBHOOK_SECRET } from "../harness"
import { RESUME_AFTER_MS } from "../../src/rules/interrupted-completion"
import { handleRefpayWebhook } from "../../src/sync-triggers/webhook/handle-webhook"
import { pollRefpayPayments } from "../../src/sync-triggers/poll/poll"
import { INTERRUPTED_REFUND_AFTER_MS } from "../../src/rules/refunds"
import { refpayProviderFor } from "../../src/providers/refpay/refpay-providers"
import { PAID_AFTER_CANCELLATION_EVENT, syncRefpayPayment } from "../../src/sync-triggers/sync-payment"

jest.setTimeout(180 * 1000)

// From refpay-checkout.spec.ts:
const AUTH = { "x-refpay-webhook-secret": TEST_WEBHOOK_SECRET }

// From refpay-interrupted-checkout.spec.ts:
const CREATE_PATH = "/dpm/payments-gwproxy/v2/payments"
const DAY = 86_400_000

/**
 * A server killed during "Place order" after Medusa created the order and before it authorised the REFPAY session
 * (found by the cluster suite, integration-tests/cluster): the order exists, its session is still `pending` without
 * the reference, and the platform holds the reference it created. The poll job resumes the authorisation.
 */

// From refpay-money-edges.spec.ts:
const MINUTE = 60_000
const CANCEL_PATH = "/dpm/payments-gwproxy/v2/payments/cancel"

/**
 * Money at the edges (issue 18), each in a real Medusa app against the sandbox: refunds from two hands at once,
 * storefront-planted session data, a store request on a placed order's collection, refunds above what was paid.
 * Medusa's refunded total and the platform's must agree after every one of them.
 */

// From refpay-refund-cancelled-order.spec.ts:
/*
 * Medusa's own refund (`POST /admin/payments/:id/refund`, the order page's "Refund") of a REFPAY payment whose order
 * is cancelled: a payment received after the cancellation. Medusa 2.21.2's refund workflow refunds through the
 * provider first and then fails on the cancelled order ("has been canceled"), so the shop owner was told "refused"
 * for money that had gone back (found by the model-based test). The refund must either happen and answer 200, or be
 * refused with nothing changed on either side.
 */

// From refpay-views.spec.ts:
const NBSP = /\u00a0/g
const SECRETS = /sandbox-client-secret|sandbox-client-id|sandbox-limited-client|fake-webhook-secret-for-tests/

// From refpay-shopper-errors.spec.ts:
/** What every platform failure at checkout shows a shopper: Portuguese first (REFPAY is for Portuguese shops), then English. */
const SHOPPER_MESSAGE =
  "O pagamento por referência REFPAY não está disponível neste momento. Tente novamente ou escolha outro método de pagamento. / " +
  "REFPAY is unavailable right now; please try again or choose another payment method."

/** Platform detail and configuration names: for the log and the admin, never in a store API answer. */
const DETAIL = /REFPAY_[A-Z]|INJECTED_FAULT|INVALID_CUSTOMER|is not valid|sandbox-client/

/**
 * One app for every suite that needs nothing but the harness's configuration: checkout, interrupted checkouts, money
 * at the edges, refunds of cancelled orders and late payments, payment views and the shopper's error messages. The
 * sandbox is reset before every test, and the database restored but in the blocks that keep it (their tests read
 * only their own orders); the shopper-error tests, which inject platform failures, run last.
 */
refpayIntegrationSuite(
  "REFPAY in a shop with the default configuration (one account, pp_refpay_refpay, no e-mail provider)",
  (ctx) => {
    // The test tooling itself (was app-boots.spec.ts): a real Medusa 2.21.2 app on the real PostgreSQL that `npm test` started.
    describe("the test tooling: a Medusa app on the test PostgreSQL", () => {
      it("boots a Medusa app on the test PostgreSQL and answers over HTTP", async () => {
        const response = await ctx.api.get("/health")
        expect(response.status).toBe(200)
      })

      it("runs queries against a real PostgreSQL database", async () => {
        const { rows } = await ctx.dbConnection.raw("select current_setting('server_version_num') as v")
        expect(Number(rows[0].v)).toBeGreaterThanOrEqual(150000)
      })

      // fixtures/migrated-database.ts: this suite's database was copied from its configuration's migrated template, or
      // left it for the suites after it; either way the template is there, not seeded.
      it("leaves or finds its configuration's migrated database, the seed not in it", async () => {
        const template = migratedTemplateName()
        const { rows } = await ctx.dbConnection.raw("select datname from pg_database where datname = ?", [template])
        expect(rows).toHaveLength(1)
        const client = new PgClient({
          connectionString: ctx.dbConfig.clientUrl.replace(/\/[^/?]*(\?|$)/, `/${template}$1`),
        })
        await client.connect()
        try {
          const regions = await client.query("select count(*)::int as n from region")
          expect(regions.rows[0].n).toBe(0)
        } finally {
          await client.end()
        }
      })

      // The harness's restore gate (fixtures/database-restore.ts) over test-utils' restore before each test: a table
      // made by one test is still there in a block that keeps the database, gone everywhere else.
      const marker = "refpay_test_tooling_marker"
      const markerExists = async () =>
        (await ctx.dbConnection.raw(`select to_regclass('public.${marker}') as t`)).rows[0].t !== null

      describe("a block that keeps the database between its tests", () => {
        keepDatabaseBetweenTests()

        it("leaves a table for the next test", async () => {
          await ctx.dbConnection.raw(`create table ${marker} (id int)`)
          expect(await markerExists()).toBe(true)
        })

        it("finds the table the test before made", async () => {
          expect(await markerExists()).toBe(true)
        })

        itOnSeededDatabase("starts from the seeded database when it says it needs it", async () => {
          expect(await markerExists()).toBe(false)
          await ctx.dbConnection.raw(`create table ${marker} (id int)`)
        })
      })

      it("starts from the seeded database after a block that kept it", async () => {
        expect(await markerExists()).toBe(false)
        // The table the test before made is a schema change: only a new copy of the template takes it away.
        expect(restoreCounts.copyAfterSchemaChange).toBeGreaterThanOrEqual(2)
      })

      // A restore by rows (fixtures/data-restore.ts): the tables a test wrote are rewritten from their copies and the
      // sequences put back, with the app's connections kept.
      let before: { region: string; sequence: string; counts: typeof restoreCounts } | undefined
      const regionName = async () =>
        (await ctx.dbConnection.raw(`select name from region order by id limit 1`)).rows[0].name
      const displayIdSequence = async () =>
        JSON.stringify((await ctx.dbConnection.raw(`select last_value, is_called from order_display_id_seq`)).rows[0])
      // The rows the test adds, one in a table whose name is a reserved word ("order": quoted wherever it is written).
      const addedRows = async () =>
        Number(
          (
            await ctx.dbConnection.raw(
              `select (select count(*) from customer where id = 'cus_tooling')
                    + (select count(*) from "order" where id = 'order_tooling') as n`
            )
          ).rows[0].n
        )

      it("changes seeded rows, adds rows and moves a sequence", async () => {
        before = { region: await regionName(), sequence: await displayIdSequence(), counts: { ...restoreCounts } }
        await ctx.dbConnection.raw(`update region set name = name || ' (changed)'`)
        await ctx.dbConnection.raw(
          `insert into customer (id, email, created_at, updated_at) values ('cus_tooling', 'tooling@example.com', now(), now())`
        )
        await ctx.dbConnection.raw(`insert into "order" (id, currency_code) values ('order_tooling', 'eur')`)
        await ctx.dbConnection.raw(`select nextval('order_display_id_seq'), nextval('order_display_id_seq')`)
        expect(await regionName()).not.toBe(before.region)
        expect(await addedRows()).toBe(2)
        expect(await displayIdSequence()).not.toBe(before.sequence)
      })

      it("finds the seeded rows and sequences again, put back by rows rather than a new copy of the database", async () => {
        expect(await regionName()).toBe(before!.region)
        expect(await addedRows()).toBe(0)
        expect(await displayIdSequence()).toBe(before!.sequence)
        expect(restoreCounts.rows).toBe(before!.counts.rows + 1)
        expect(restoreCounts.copy).toBe(before!.counts.copy)
      })

      // A client still in a transaction when the next test starts (the app busy after all): the rows are not put back
      // under it, the database is copied anew, which cuts that client off as test-utils' restore always did.
      let openTransaction: { client: InstanceType<typeof PgClient>; ended: Promise<unknown> } | undefined
      it("leaves a transaction open with a row written in it", async () => {
        before = { region: await regionName(), sequence: await displayIdSequence(), counts: { ...restoreCounts } }
        const client = new PgClient({ connectionString: ctx.dbConfig.clientUrl })
        const ended = new Promise((resolve) => client.on("error", resolve))
        await client.connect()
        await client.query("BEGIN")
        await client.query(`update region set name = name || ' (in a transaction)'`)
        openTransaction = { client, ended }
      })

      it("starts from a new copy of the database when a client was in a transaction, and that client is cut off", async () => {
        expect(restoreCounts.copyWhileBusy).toBe(before!.counts.copyWhileBusy + 1)
        expect(restoreCounts.rows).toBe(before!.counts.rows)
        await openTransaction!.ended
        await expect(openTransaction!.client.query("select 1")).rejects.toThrow()
        expect(await regionName()).toBe(before!.region)
      })
    })

    describe("REFPAY provider lifecycle through Medusa's store and admin APIs", () => {
      const { api, adminHeaders, control, store } = ctx
      // Each test reads its own orders, but those that count the shop's orders.
      keepDatabaseBetweenTests()

      async function adminOrder(orderId: string) {
        const fields =
          "+payment_status,*payment_collections,*payment_collections.payment_sessions,*payment_collections.payments,*payment_collections.payments.refunds"
        const { data } = await api.get(`/admin/orders/${orderId}?fields=${fields}`, adminHeaders())
        return data.order
      }

      const refpaySession = (order: any) => order.payment_collections[0].payment_sessions[0]
      const platformPayments = async () => (await control("GET", "/payments")).payments as any[]

      /** The customer pays; the platform's webhook reaches the plugin's sync (what either webhook route runs). */
      async function payAndProcess(order: any) {
        const paymentId = refpaySession(order).data.refpay.payment_id
        await control("POST", `/payments/${paymentId}/pay`)
        const event = {
          event_type: "APPROVED_TRANSACTIONS",
          payment_id: paymentId,
          order_id: refpaySession(order).data.refpay.order_id,
        }
        return handleRefpayWebhook(ctx.getContainer(), { body: event, headers: AUTH, route: "refpay" })
      }

      it("completes checkout: order awaiting payment, entity and reference exactly as the sandbox returned them, amount in cents", async () => {
        await control("POST", "/next-reference", { entity: "01234", reference: "000123450" })
        const { completion } = await placeRefpayOrder(api, store())
        expect(completion.type).toBe("order")

        const order = await adminOrder(completion.order.id)
        expect(order.payment_status).toBe("awaiting")
        const session = refpaySession(order)
        expect(session.status).toBe("pending_authorization")
        expect(order.payment_collections[0].payments ?? []).toHaveLength(0)

        const [platform] = await platformPayments()
        expect(platform.additional_data).toEqual({ entity: "01234", reference: "000123450" })
        expect(session.data.refpay).toMatchObject({
          payment_id: platform.payment_id,
          order_id: platform.order_id,
          entity: "01234",
          reference: "000123450",
          amount: "2498",
          amount_cents: 2498,
          currency: "EUR",
          status: "WAITING",
        })
        expect(platform.amount).toBe("2498") // 19.99 item + 4.99 shipping
        expect(platform.order_id.length).toBeLessThanOrEqual(35)
        expect(Date.parse(session.data.refpay.expires_at) - Date.parse(session.data.refpay.created_at)).toBe(
          7 * 86_400_000
        )
        // The cart's one address (LISBON_ADDRESS), in the platform's shape, as billing and as shipping address.
        const lisbon = {
          street: "Rua Augusta 100",
          complement: "2.º Esq.",
          city: "Lisboa",
          state: "Lisboa",
          country: "PT",
          postal_code: "1100-053",
        }
        expect(platform.customer).toEqual({
          email: "maria.silva@example.com",
          name: "Maria Silva",
          phone_number: "+351912345678",
          billing_address: lisbon,
          shippings: { address: lisbon },
        })
      })

      it("adds no float drift: three 0.10 EUR items and 4.99 shipping reach the platform as 529 cents", async () => {
        const { completion } = await placeRefpayOrder(api, store(), {
          items: [{ variant_id: store().cheapVariantId, quantity: 3 }],
        })
        const order = await adminOrder(completion.order.id)
        expect(refpaySession(order).data.refpay.amount_cents).toBe(529)
        expect((await platformPayments())[0].amount).toBe("529")
      })

      it("marks the order paid once the customer pays, through the re-authorisation Medusa runs on a webhook", async () => {
        const { completion } = await placeRefpayOrder(api, store())
        let order = await adminOrder(completion.order.id)
        const result = await payAndProcess(order)
        expect(result).toEqual({ status: 200, body: { received: true, processed: true } })

        order = await adminOrder(completion.order.id)
        expect(order.payment_status).toBe("captured")
        expect(order.payment_collections[0].status).toBe("completed")
        const payment = order.payment_collections[0].payments[0]
        expect(payment.provider_id).toBe("pp_refpay_refpay")
        expect(Number(payment.amount)).toBe(24.98)
        expect(payment.data.refpay.status).toBe("APPROVED")
      })

      it("ignores a webhook without the shared secret, and one whose platform status is still WAITING", async () => {
        const { completion } = await placeRefpayOrder(api, store())
        const order = await adminOrder(completion.order.id)
        const refpay = refpaySession(order).data.refpay
        const forged = {
          event_type: "APPROVED_TRANSACTIONS",
          payment_id: refpay.payment_id,
          order_id: refpay.order_id,
          status: "APPROVED",
        }

        const deliver = (headers: Record<string, string>) =>
          handleRefpayWebhook(ctx.getContainer(), { body: forged, headers, route: "refpay" })
        expect((await deliver({ "x-refpay-webhook-secret": "wrong" })).status).toBe(401)
        // Right secret, but the customer has not paid: the status read says WAITING, whatever the event claims.
        expect(await deliver(AUTH)).toEqual({ status: 200, body: { received: true, processed: true } })
        expect((await adminOrder(completion.order.id)).payment_status).toBe("awaiting")
        // Medusa's core webhook subscriber is never the one that acts (it would run outside the session lock and the
        // amount check): the provider tells it there is nothing to do, and the plugin's own subscriber syncs instead.
        expect(await processWebhookLikeCore(ctx.getContainer(), forged, AUTH)).toEqual({ action: "not_supported" })
        expect((await adminOrder(completion.order.id)).payment_status).toBe("awaiting")
      })

      it("refuses a manual capture while the reference is WAITING, with a message a shop owner understands", async () => {
        const { completion } = await placeRefpayOrder(api, store())
        const session = refpaySession(await adminOrder(completion.order.id))
        await expect(
          (await refpayProviderFor(ctx.getContainer(), "pp_refpay_refpay")).capturePayment({ data: session.data })
        ).rejects.toThrow(/not paid reference \d{9} \(entity \d{5}\)\. It is captured automatically/)
      })

      it("cancels the reference on the platform when the order is cancelled while WAITING", async () => {
        const { completion } = await placeRefpayOrder(api, store())
        const paymentId = refpaySession(await adminOrder(completion.order.id)).data.refpay.payment_id
        await api.post(`/admin/orders/${completion.order.id}/cancel`, {}, adminHeaders())
        await ctx.utils.waitWorkflowExecutions()

        await waitFor(async () => (await control("GET", `/payments/${paymentId}`)).status === "CANCELLED")
        const order = await adminOrder(completion.order.id)
        expect(order.status).toBe("canceled")
        expect(refpaySession(order)).toMatchObject({ status: "canceled", data: { refpay: { status: "CANCELLED" } } })
      })

      it("refunds a paid order in full and in part through the platform's cancel/refund call, in cents", async () => {
        const { completion } = await placeRefpayOrder(api, store())
        await payAndProcess(await adminOrder(completion.order.id))
        const payment = (await adminOrder(completion.order.id)).payment_collections[0].payments[0]

        await api.post(`/admin/payments/${payment.id}/refund`, { amount: 10.01 }, adminHeaders())
        let platform = await control("GET", `/payments/${payment.data.refpay.payment_id}`)
        expect(platform.refunded_amount).toBe("1001")

        await api.post(`/admin/payments/${payment.id}/refund`, { amount: 14.97 }, adminHeaders())
        platform = await control("GET", `/payments/${payment.data.refpay.payment_id}`)
        expect(platform.refunded_amount).toBe("2498")
        expect(platform.records.filter((r: any) => r.type === "REFUND").map((r: any) => r.amount)).toEqual([
          "1001",
          "1497",
        ])

        const order = await adminOrder(completion.order.id)
        expect(order.payment_status).toBe("refunded")
      })

      it("creates exactly one reference when the same cart is completed twice", async () => {
        const cart = await prepareCart(api, store())
        await selectRefpay(api, store(), cart)
        const first = await completeCart(api, store(), cart.id)
        const second = await completeCart(api, store(), cart.id)
        expect(second.order.id).toBe(first.order.id)
        expect(await platformPayments()).toHaveLength(1)
      })

      itOnSeededDatabase(
        "creates exactly one reference when completion is retried after a platform 500 that hid a created payment",
        async () => {
          const cart = await prepareCart(api, store())
          await selectRefpay(api, store(), cart)
          // The platform creates the payment, then fails the answer: both attempts the client makes see a 500.
          await control("POST", "/faults", {
            path: "/dpm/payments-gwproxy/v2/payments",
            method: "POST",
            count: 2,
            status: 500,
            when: "after",
          })
          // Medusa answers a payment authorisation error with the cart and the error, for the storefront to show.
          const failed = await completeCart(api, store(), cart.id)
          expect(failed.type).toBe("cart")
          expect(failed.error.message).toMatch(/REFPAY is unavailable right now/)
          const orders = await api.get(`/admin/orders?fields=id`, adminHeaders())
          expect(orders.data.orders).toHaveLength(0)

          const retried = await completeCart(api, store(), cart.id)
          expect(retried.type).toBe("order")
          const payments = await platformPayments()
          expect(payments).toHaveLength(1)
          const session = refpaySession(await adminOrder(retried.order.id))
          expect(session.data.refpay.reference).toBe(payments[0].additional_data.reference)
        }
      )

      it("refuses a REFPAY session in a USD region with a clear message", async () => {
        const cart = await prepareCart(api, store(), {
          regionId: store().usdRegion.id,
          address: { ...LISBON_ADDRESS, country_code: "us" },
        })
        const error = await selectRefpay(api, store(), cart).catch((e: any) => e.response)
        expect(error.status).toBe(400)
        expect(error.data.message).toMatch(/REFPAY accepts payments in euros only; this cart is in USD/)
        expect(await platformPayments()).toHaveLength(0)
      })

      itOnSeededDatabase(
        "refuses to complete a REFPAY cart with a non-Portuguese address before any order or reference exists",
        async () => {
          const spanish = { ...LISBON_ADDRESS, country_code: "es", city: "Madrid", postal_code: "28001" }
          const cart = await prepareCart(api, store(), { billingAddress: spanish })
          await selectRefpay(api, store(), cart)
          const error = await api
            .post(`/store/carts/${cart.id}/complete`, {}, ctx.storeHeaders())
            .catch((e: any) => e.response)
          expect(error.status).toBe(400)
          expect(JSON.stringify(error.data)).toMatch(
            /REFPAY is available in Portugal only: the billing address is in ES/
          )
          expect(await platformPayments()).toHaveLength(0)
          expect((await api.get(`/admin/orders?fields=id`, adminHeaders())).data.orders).toHaveLength(0)
        }
      )

      it("ignores identifiers and amounts a storefront tries to put in the session data", async () => {
        const cart = await prepareCart(api, store())
        const { data } = await api.post("/store/payment-collections", { cart_id: cart.id }, ctx.storeHeaders())
        await api.post(
          `/store/payment-collections/${data.payment_collection.id}/payment-sessions`,
          {
            provider_id: "pp_refpay_refpay",
            data: { amount_cents: 1, generation: 7, refpay: { payment_id: "x".repeat(60) } },
          },
          ctx.storeHeaders()
        )
        const completion = await completeCart(api, store(), cart.id)
        const session = refpaySession(await adminOrder(completion.order.id))
        expect(session.data).toMatchObject({ amount_cents: 2498, generation: 0 })
        expect((await platformPayments())[0].amount).toBe("2498")
      })

      itOnSeededDatabase.each([
        [
          401,
          "/dpm/payments-gwproxy/v2/payments",
          /REFPAY is unavailable right now; please try again or choose another payment method/,
        ],
        [
          403,
          "/dpm/payments-gwproxy/v2/payments",
          /REFPAY is unavailable right now; please try again or choose another payment method/,
        ],
        [500, "/dpm/payments-gwproxy/v2/payments", /unavailable right now/],
      ])(
        "answers a platform %i with a clear error and leaves no order or reference behind",
        async (status, path, message) => {
          const cart = await prepareCart(api, store())
          await selectRefpay(api, store(), cart)
          await control("POST", "/faults", { path, count: 10, status })
          const failed = await completeCart(api, store(), cart.id)
          expect(failed.type).toBe("cart")
          expect(failed.error.message).toMatch(message)
          expect(JSON.stringify(failed)).not.toMatch(/sandbox-client-secret|sandbox-client-id/)
          expect(await platformPayments()).toHaveLength(0)
          expect((await api.get(`/admin/orders?fields=id`, adminHeaders())).data.orders).toHaveLength(0)

          await control("DELETE", "/faults")
          expect((await completeCart(api, store(), cart.id)).type).toBe("order")
          expect(await platformPayments()).toHaveLength(1)
        }
      )

      it("cancels a replaced reference when the amount changes (updatePayment), and the next authorisation gets a new one", async () => {
        const provider = await refpayProviderFor(ctx.getContainer(), "pp_refpay_refpay")
        const initiated = await provider.initiatePayment({
          amount: 10,
          currency_code: "eur",
          data: { session_id: "payses_01JZ8X4K7M2N3P4Q5R6S7T8V9W" },
        })
        const first = await provider.authorizePayment({ data: initiated.data })
        const updated = await provider.updatePayment({ amount: 12.5, currency_code: "eur", data: first.data })
        expect(updated).toMatchObject({ status: "pending", data: { amount_cents: 1250, generation: 1, refpay: null } })
        const second = await provider.authorizePayment({ data: updated.data })
        const [old, fresh] = await platformPayments()
        expect(old).toMatchObject({ status: "CANCELLED", amount: "1000" })
        expect(fresh).toMatchObject({
          status: "WAITING",
          amount: "1250",
          payment_id: (second.data as any).refpay.payment_id,
        })
        expect(fresh.order_id).toBe("ps_01JZ8X4K7M2N3P4Q5R6S7T8V9W-1")
      })
    })

    describe("REFPAY checkout interrupted between the order and the payment's authorisation", () => {
      const { control } = ctx
      const { adminOrder, placeOrder } = refpayOrders(ctx)

      /** The state the killed server left: the session back to `pending`, without the reference Medusa never stored. */
      async function interruptAuthorisation(orderId: string) {
        const before = session(await adminOrder(orderId))
        const pg = ctx.getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
        // What initiatePayment wrote: everything but the reference.
        await pg("payment_session")
          .where({ id: before.id })
          .update({ status: "pending", data: { ...before.data, refpay: null } })
        return {
          sessionId: before.id as string,
          refpay: before.data.refpay as { payment_id: string; reference: string; entity: string },
        }
      }

      it("authorises the session again at the next poll run: the order shows the reference the platform created, with no second creation", async () => {
        const { orderId } = await placeOrder()
        const { sessionId, refpay } = await interruptAuthorisation(orderId)
        expect(session(await adminOrder(orderId)).data.refpay).toBeNull()
        // This reference's creations only (by its idempotency key): the poll runs below, and Medusa's own minute job,
        // may resume another test's interrupted checkout meanwhile.
        const { idempotency_key: key } = await control("GET", `/payments/${refpay.payment_id}`)
        const creations = async () =>
          (await control("GET", `/requests?path=${CREATE_PATH}&method=POST`)).requests.filter(
            (r: { path: string; idempotency_key?: string }) => r.path === CREATE_PATH && r.idempotency_key === key
          ).length
        const creationsBefore = await creations()
        expect(creationsBefore).toBe(1)

        // A completion that may still be running is left alone.
        await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + RESUME_AFTER_MS - 10_000))
        expect(session(await adminOrder(orderId)).status).toBe("pending")

        await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + RESUME_AFTER_MS + 10_000))
        const resumed = session(await adminOrder(orderId))
        expect(resumed.id).toBe(sessionId)
        expect(resumed.status).toBe("pending_authorization")
        expect(resumed.data.refpay).toMatchObject({
          payment_id: refpay.payment_id,
          entity: refpay.entity,
          reference: refpay.reference,
        })
        // The platform replayed its reference (same identifiers, same idempotency key): nothing new to pay.
        expect(await creations()).toBe(creationsBefore + 1)
        expect(
          (await control("GET", "/payments")).payments.filter(
            (p: { payment_id: string }) => p.payment_id === refpay.payment_id
          )
        ).toHaveLength(1)
      })

      it("leaves alone a session interrupted longer ago than a reference can be paid, and resumes it while it is recent", async () => {
        const { orderId } = await placeOrder()
        const { refpay } = await interruptAuthorisation(orderId)

        // A year on, past validity, grace and the late-settlement window: the scan does not even read it.
        await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + 365 * DAY))
        expect(session(await adminOrder(orderId))).toMatchObject({ status: "pending", data: { refpay: null } })

        // The same session, seen when it is recent enough: resumed (so the one above was skipped for its age alone).
        await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + RESUME_AFTER_MS + 10_000))
        expect(session(await adminOrder(orderId))).toMatchObject({
          status: "pending_authorization",
          data: { refpay: { reference: refpay.reference } },
        })
      })
    })

    describe("REFPAY money at the edges: overlapping refunds, planted data, swapped references, refund limits", () => {
      const { api, adminHeaders, storeHeaders, control } = ctx
      // Each test reads its own order, but the poll runs over every due payment (a store request's block).
      keepDatabaseBetweenTests()
      const { adminOrder, placeOrder, waitForOrder } = refpayOrders(ctx)
      const platform = (paymentId: string) => control("GET", `/payments/${paymentId}`)
      const refund = (paymentId: string, body: Record<string, unknown>) =>
        api.post(`/admin/payments/${paymentId}/refund`, body, adminHeaders()).catch((e: any) => e.response)
      const cancelCalls = async () => (await control("GET", `/requests?path=${CANCEL_PATH}`)).count as number

      /** A placed order whose customer paid, captured in Medusa by the admin's "Check status now" (no webhook timing involved). */
      async function paidOrder() {
        const placed = await placeOrder()
        await control("POST", `/payments/${placed.refpay.payment_id}/pay`)
        expect((await api.post(`/admin/refpay/orders/${placed.orderId}/sync`, {}, adminHeaders())).data.action).toBe(
          "capture"
        )
        const order = await waitForOrder(
          placed.orderId,
          (o) => captureCount(o) === 1 && o.payment_status === "captured"
        )
        return { ...placed, paymentId: payments(order)[0].id as string }
      }

      describe("two refunds at once", () => {
        it("makes both on the platform when the second starts while the first's answer is still on its way", async () => {
          const paid = await paidOrder()
          // The platform makes the first refund at once and answers it 1.5 s later.
          await control("POST", "/faults", {
            path: CANCEL_PATH,
            method: "POST",
            count: 1,
            delay_ms: 1500,
            when: "after",
          })
          const first = refund(paid.paymentId, { amount: 10 })
          await waitFor(
            async () => (await platform(paid.refpay.payment_id)).refunded_amount === "1000",
            10_000,
            "the first refund made"
          )
          const second = refund(paid.paymentId, { amount: 10 })
          const answers = await Promise.all([first, second])

          expect(answers.map((a) => a.status)).toEqual([200, 200])
          expect((await platform(paid.refpay.payment_id)).refunded_amount).toBe("2000")
          expect(refundedTotal(await adminOrder(paid.orderId))).toBe(2000)
        })

        it("agrees with the platform when an order cancellation and a manual refund overlap", async () => {
          const paid = await paidOrder()
          await control("POST", "/faults", {
            path: CANCEL_PATH,
            method: "POST",
            count: 1,
            delay_ms: 1500,
            when: "after",
          })
          const manual = refund(paid.paymentId, { amount: 5 })
          await waitFor(
            async () => (await platform(paid.refpay.payment_id)).refunded_amount === "500",
            10_000,
            "the manual refund made"
          )
          const cancel = api
            .post(`/admin/orders/${paid.orderId}/cancel`, {}, adminHeaders())
            .catch((e: any) => e.response)
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
          const answers = [
            await refund(paid.paymentId, { amount: 12.495 }),
            await refund(paid.paymentId, { amount: 12.495 }),
          ]

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
          await (
            await refpayProviderFor(ctx.getContainer(), "pp_refpay_refpay")
          ).client.cancelOrRefund({
            paymentId: paid.refpay.payment_id,
            amountCents: 2000,
            idempotencyKey: randomUUID(),
          })
          const unrecorded = await refund(paid.paymentId, { amount: 1 })
          expect(unrecorded.status).toBe(400)
          expect(unrecorded.data.message).toMatch(/not recorded yet/)
          expect((await api.post(`/admin/refpay/orders/${paid.orderId}/sync`, {}, adminHeaders())).data.action).toBe(
            "record_refund"
          )
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
          await waitFor(
            async () => (await platform(placed.refpay.payment_id)).status === "CANCELLED",
            20_000,
            "the reference cancelled"
          )
          await control("POST", `/payments/${placed.refpay.payment_id}/pay`, { force: true })
          expect((await api.post(`/admin/refpay/orders/${placed.orderId}/sync`, {}, adminHeaders())).data.action).toBe(
            "capture_late"
          )
          const late = session(await adminOrder(placed.orderId)).data.paid_after_cancellation_at
          expect(late).toBeTruthy()
          expect(late).not.toBe(planted.paid_after_cancellation_at)
        })
      })

      describe("a store request on a placed order's payment collection", () => {
        itOnSeededDatabase(
          "never cancels the live reference, and the poll job issues no reference nobody was told about",
          async () => {
            const placed = await placeOrder()
            const order = await adminOrder(placed.orderId)
            const collectionId = order.payment_collections[0].id as string
            const created = (await control("GET", "/payments")).payments?.length

            const swap = await api
              .post(
                `/store/payment-collections/${collectionId}/payment-sessions`,
                { provider_id: "pp_refpay_refpay" },
                storeHeaders()
              )
              .catch((e: any) => e.response)
            expect(swap.status).toBeGreaterThanOrEqual(400)
            expect(swap.status).toBeLessThan(500)

            expect((await platform(placed.refpay.payment_id)).status).toBe("WAITING")
            const after = await adminOrder(placed.orderId)
            expect(after.payment_collections[0].payment_sessions.map((s: any) => s.id)).toEqual([session(order).id])

            await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + 11 * MINUTE))
            expect((await control("GET", "/payments")).payments?.length).toBe(created)
            expect((await platform(placed.refpay.payment_id)).status).toBe("WAITING")
          }
        )

        itOnSeededDatabase("does not resume a session that no cart completion started", async () => {
          const placed = await placeOrder()
          const order = await adminOrder(placed.orderId)
          const container = ctx.getContainer()
          // A pending REFPAY session on the placed order's collection that a store request (not a checkout) created.
          const { createPaymentSessionsWorkflow } = await import("@medusajs/medusa/core-flows")
          const { result } = await createPaymentSessionsWorkflow(container).run({
            input: {
              payment_collection_id: order.payment_collections[0].id,
              provider_id: "pp_refpay_refpay",
              data: {},
            },
          })
          const created = (await control("GET", "/payments")).payments?.length

          await pollRefpayPayments(container, new Date(Date.now() + 11 * MINUTE))
          expect((await control("GET", "/payments")).payments?.length).toBe(created)
          const sessions = (await adminOrder(placed.orderId)).payment_collections[0].payment_sessions
          expect(sessions.find((s: any) => s.id === result.id)?.status).toBe("pending")
        })
      })
    })

    describe("REFPAY: Medusa's refund of a payment received after its order was cancelled", () => {
      const { api, adminHeaders, control } = ctx
      keepDatabaseBetweenTests()
      const { placeOrder, waitForOrder, adminOrder } = refpayOrders(ctx)
      const refund = (paymentId: string, body: Record<string, unknown>) =>
        api.post(`/admin/payments/${paymentId}/refund`, body, adminHeaders()).catch((e: any) => e.response)

      async function latePayment() {
        const placed = await placeOrder()
        await api.post(`/admin/orders/${placed.orderId}/cancel`, {}, adminHeaders())
        await waitFor(
          async () => (await control("GET", `/payments/${placed.refpay.payment_id}`)).status === "CANCELLED",
          20_000,
          "the reference cancelled"
        )
        await waitForOrder(placed.orderId, (o) => session(o).status === "canceled")
        await control("POST", `/payments/${placed.refpay.payment_id}/pay`, { force: true })
        expect((await api.post(`/admin/refpay/orders/${placed.orderId}/sync`, {}, adminHeaders())).data.action).toBe(
          "capture_late"
        )
        const payment = payments(await adminOrder(placed.orderId))[0]
        return { ...placed, paymentId: payment.id as string }
      }

      it("refunds part, then the rest, on the platform and in Medusa, and answers 200 with the payment", async () => {
        const late = await latePayment()

        const part = await refund(late.paymentId, { amount: 8.32, note: "goodwill" })
        expect(part.status).toBe(200)
        expect(part.data.payment).toMatchObject({ id: late.paymentId })
        expect(part.data.payment.refunds.map((r: any) => Number(r.amount))).toEqual([8.32])
        expect((await control("GET", `/payments/${late.refpay.payment_id}`)).refunded_amount).toBe("832")
        expect(refundedTotal(await adminOrder(late.orderId))).toBe(832)

        const rest = await refund(late.paymentId, {})
        expect(rest.status).toBe(200)
        expect((await control("GET", `/payments/${late.refpay.payment_id}`)).refunded_amount).toBe("2498")
        const order = await adminOrder(late.orderId)
        expect(refundedTotal(order)).toBe(2498)
        expect(order.status).toBe("canceled")
      })

      it("refuses more than is held, changing nothing on either side", async () => {
        const late = await latePayment()
        const over = await refund(late.paymentId, { amount: 24.99 })
        expect(over.status).toBe(400)
        expect((await control("GET", `/payments/${late.refpay.payment_id}`)).refunded_amount).toBe("0")
        expect(refundedTotal(await adminOrder(late.orderId))).toBe(0)
      })
    })

    describe("REFPAY payment after cancellation, with automatic refunds on", () => {
      // This shop refunds late payments by itself (REFPAY_AUTO_REFUND_LATE_PAYMENTS=true): the setting is read when a
      // late payment is recorded, so these tests turn it on for the account and back off after.
      const lateSettings = async () =>
        (await refpayProviderFor(ctx.getContainer(), REFPAY_PROVIDER_ID)).settings as {
          autoRefundLatePayments: boolean
        }
      beforeAll(async () => {
        ;(await lateSettings()).autoRefundLatePayments = true
      })
      afterAll(async () => {
        ;(await lateSettings()).autoRefundLatePayments = false
      })

      const { api, adminHeaders, control, store } = ctx
      keepDatabaseBetweenTests()

      it("records the late payment, emits an event with its details and refunds it in full on the platform", async () => {
        await control("POST", "/webhooks/config", {
          url: `${(api as any).defaults.baseURL}/hooks/refpay`,
          secret: TEST_WEBHOOK_SECRET,
        })
        const events: any[] = []
        ctx
          .getContainer()
          .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
          .subscribe(PAID_AFTER_CANCELLATION_EVENT, async (event: any) => {
            events.push(event.data)
          })

        const { completion } = await placeRefpayOrder(api, store())
        const orderId = completion.order.id
        const fields =
          "*payment_collections,*payment_collections.payment_sessions,*payment_collections.payments,*payment_collections.payments.refunds"
        const load = async () => (await api.get(`/admin/orders/${orderId}?fields=${fields}`, adminHeaders())).data.order
        const paymentId = (await load()).payment_collections[0].payment_sessions[0].data.refpay.payment_id

        await api.post(`/admin/orders/${orderId}/cancel`, {}, adminHeaders())
        await waitFor(async () => (await control("GET", `/payments/${paymentId}`)).status === "CANCELLED")
        await control("POST", `/payments/${paymentId}/pay`, { force: true })

        await waitFor(async () => (await control("GET", `/payments/${paymentId}`)).refunded_amount === "2498")
        await waitFor(async () => events.length > 0)
        expect(events[0]).toMatchObject({ order_id: orderId, refpay_payment_id: paymentId, amount_cents: 2498 })
        // The session is flagged once the refund is made (the sync's step after it).
        await waitFor(
          async () => !!(await load()).payment_collections[0].payment_sessions[0].data.paid_after_cancellation_at
        )
        const order = await load()
        const payment = order.payment_collections[0].payments[0]
        expect(payment.refunds.map((r: any) => Number(r.amount))).toEqual([24.98])
        expect(order.payment_collections[0].payment_sessions[0].data.paid_after_cancellation_at).toBeTruthy()
      })

      /**
       * A cancelled order paid late, whose first check's automatic refund the platform refused (and any retry of it),
       * with the plugin's webhook off: the returned `check` is the order's "Check status now".
       */
      async function lateAutoRefundRefused() {
        await control("POST", "/webhooks/config", { url: null })
        const { placeOrder, waitForOrder, adminOrder } = refpayOrders(ctx)
        const placed = await placeOrder()
        const refpayId = placed.refpay.payment_id
        await api.post(`/admin/orders/${placed.orderId}/cancel`, {}, adminHeaders())
        await waitForOrder(placed.orderId, (o) => session(o).status === "canceled")
        expect((await control("GET", `/payments/${refpayId}`)).status).toBe("CANCELLED")
        await control("POST", `/payments/${refpayId}/pay`, { force: true })
        const check = () =>
          api.post(`/admin/refpay/orders/${placed.orderId}/sync`, {}, adminHeaders()).catch((e: any) => e.response)
        await control("POST", "/faults", { path: CANCEL_PATH, method: "POST", count: 10, status: 500 })
        expect((await check()).status).toBeGreaterThanOrEqual(400)
        await control("DELETE", "/faults")
        return { refpayId, check, order: () => adminOrder(placed.orderId) }
      }

      afterEach(async () => {
        await control("POST", "/webhooks/config", {
          url: `${(api as any).defaults.baseURL}/hooks/refpay`,
          secret: TEST_WEBHOOK_SECRET,
        })
      })

      it("refunds a late payment on the next check when its automatic refund failed, and flags it only once refunded", async () => {
        // The platform refused the automatic refund: the capture stands, nothing is flagged, nothing refunded.
        const { refpayId, check, order } = await lateAutoRefundRefused()
        const failed = await order()
        expect(payments(failed)[0].captured_at).toBeTruthy()
        expect(refundedTotal(failed)).toBe(0)
        expect(session(failed).data.paid_after_cancellation_at ?? null).toBeNull()
        expect((await control("GET", `/payments/${refpayId}`)).refunded_amount).toBe("0")

        // The next check finds the late payment again and refunds it, once, on both sides; then it is flagged.
        expect((await check()).data.action).toBe("flag_late")
        const done = await order()
        expect((await control("GET", `/payments/${refpayId}`)).refunded_amount).toBe("2498")
        expect(payments(done)[0].refunds.map((r: any) => Number(r.amount))).toEqual([24.98])
        expect(session(done).data.paid_after_cancellation_at).toBeTruthy()
        expect((await check()).data.action).toBe("none")
      })

      it("makes a late payment's automatic refund again when a server died during it: the refund cut short is removed once it cannot still be on its way", async () => {
        const { refpayId, check, order } = await lateAutoRefundRefused()
        const captured = await order()
        expect(payments(captured)[0].captured_at).toBeTruthy()

        // The next try's server dies during the platform call: Medusa's Refund committed, nothing made.
        const cut = await refundCutShort(ctx.getContainer(), payments(captured)[0].id, 24.98)
        // Within the wait a refund call may still last, Medusa refuses a second refund of what it counts refunded.
        expect((await check()).status).toBeGreaterThanOrEqual(400)
        expect((await control("GET", `/payments/${refpayId}`)).refunded_amount).toBe("0")

        const sessionId = session(captured).id
        const later = new Date(Date.now() + INTERRUPTED_REFUND_AFTER_MS + 60_000)
        const result = await syncRefpayPayment(ctx.getContainer(), { sessionId, reason: "admin", now: later })
        expect(result.action).toBe("flag_late")
        const done = await order()
        expect((await control("GET", `/payments/${refpayId}`)).refunded_amount).toBe("2498")
        expect(payments(done)[0].refunds.map((r: any) => [r.id === cut.id, Number(r.amount)])).toEqual([[false, 24.98]])
        expect(session(done).data.paid_after_cancellation_at).toBeTruthy()
      })
    })

    describe("REFPAY payment views: thank-you page route, admin routes and check-now sync", () => {
      const { api, adminHeaders, control, store } = ctx
      keepDatabaseBetweenTests()
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
        const wrong = await api
          .get(`/store/refpay/orders/${orderId}`, { headers: { "x-publishable-api-key": "pk_wrong" } })
          .catch(fail)
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
        expect((await storeView(orderId)).data.refpay).toMatchObject({
          status: "paid",
          do_not_ship: false,
          entity: before.entity,
        })

        const { data } = await api.get(`/admin/orders/${orderId}?fields=+payment_status`, adminHeaders())
        expect(data.order.payment_status).toBe("captured")

        // Checking again changes nothing.
        const again = await sync(orderId)
        expect(again.data).toMatchObject({ action: "none", refpay: { status: "paid" } })
      })

      it("records the check and stays awaiting when the customer has not paid yet", async () => {
        const orderId = await placeOrder()
        const synced = await sync(orderId)
        expect(synced.data).toMatchObject({
          action: "record_check",
          refpay: { status: "awaiting", platform_status: "WAITING" },
        })
      })

      it("shows a cancelled order as cancelled, never shippable", async () => {
        const orderId = await placeOrder()
        await api.post(`/admin/orders/${orderId}/cancel`, {}, adminHeaders())
        await ctx.utils.waitWorkflowExecutions()
        expect((await adminView(orderId)).data.refpay).toMatchObject({
          status: "cancelled",
          expired: false,
          do_not_ship: true,
        })
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
        expect(
          (await api.post(`/admin/refpay/orders/${orderId}/sync`, {}, ctx.storeHeaders()).catch(fail)).status
        ).toBe(401)
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
            "payment_collection_id",
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
        const placed = TestEventUtils.waitSubscribersExecution("order.placed", eventBus, {
          triggerCount: 2,
          timeout: 60_000,
        })
        const orderId = await placeOrder()
        await placeOrder()
        await placed

        // The subscriber absorbed the failure (the event bus logs an error for a subscriber that throws), and warned
        // about the missing provider at most once for the two orders (earlier tests of this suite may have used it up).
        expect(errors.mock.calls.flat().join(" ")).not.toMatch(/order\.placed|payment instructions/)
        expect(
          warnings.mock.calls.flat().filter((m) => /payment instructions/.test(String(m))).length
        ).toBeLessThanOrEqual(1)
        errors.mockRestore()
        warnings.mockRestore()

        const { data } = await api.get(`/admin/orders/${orderId}?fields=+payment_status`, adminHeaders())
        expect(data.order.payment_status).toBe("awaiting")
        expect((await storeView(orderId)).data.refpay.status).toBe("awaiting")

        // What Medusa 2.21.2 does without a provider for the channel: it keeps a record of the attempt, status "failure",
        // and throws "Could not find a notification provider for channel: email", which the subscriber logs and absorbs.
        const notifications = ctx.getContainer().resolve<INotificationModuleService>(Modules.NOTIFICATION)
        const [attempt] = await notifications.listNotifications(
          { resource_id: orderId },
          { select: ["id", "template", "channel", "status", "provider_id"] as any }
        )
        expect(attempt).toMatchObject({
          template: "refpay-payment-instructions",
          channel: "email",
          status: "failure",
          provider_id: null,
        })
      })
    })

    describe("REFPAY amount limits at checkout (REFPAY_MIN_AMOUNT, REFPAY_MAX_AMOUNT)", () => {
      const { api, adminHeaders, control, store } = ctx
      type Limits = AmountLimitSettings
      const withLimits = (limits: Partial<Limits>, check: () => Promise<void>) =>
        withAmountLimits(ctx.getContainer(), limits, check)

      /** Payment creations the sandbox received (its request log: a refused one would be there too). */
      const creations = async () =>
        (await control("GET", `/requests?path=${CREATE_PATH}&method=POST`)).requests.filter(
          (r: { path: string }) => r.path === CREATE_PATH
        ).length
      const orders = async () => (await api.get(`/admin/orders?fields=id`, adminHeaders())).data.orders

      /** The store API's refusal of a request (status and message, spaces plain), or "not refused". */
      async function refusalOf(request: Promise<unknown>) {
        try {
          await request
          return "not refused"
        } catch (error: any) {
          return { status: error.response?.status, message: String(error.response?.data?.message).replace(NBSP, " ") }
        }
      }

      const BELOW =
        "Uma referência REFPAY tem de ser de pelo menos 24,99 €, e este valor é de 24,98 €. Escolha outro método de pagamento. / " +
        "A REFPAY reference must be for at least €24.99, and this amount is €24.98. Please choose another payment method."
      const ABOVE =
        "Uma referência REFPAY não pode ser de mais de 24,97 €, e este valor é de 24,98 €. Escolha outro método de pagamento. / " +
        "A REFPAY reference cannot be for more than €24.97, and this amount is €24.98. Please choose another payment method."
      /** The seeded 24.98 EUR cart one cent outside each bound, and what the shopper reads. */
      const OUTSIDE: [string, Partial<Limits>, string][] = [
        ["below the minimum", { minAmountCents: 2499 }, BELOW],
        ["above the maximum", { maxAmountCents: 2497 }, ABOVE],
      ]

      it.each(OUTSIDE)(
        "refuses a cart %s when the shopper selects REFPAY, in Portuguese then English, with no order and no platform call",
        async (_name, limits, message) => {
          const cart = await prepareCart(api, store())
          await withLimits(limits, async () => {
            expect(await refusalOf(selectRefpay(api, store(), cart))).toEqual({ status: 400, message })
          })
          // Medusa deleted the refused session: completing the cart finds no payment to authorise.
          const completed = await api
            .post(`/store/carts/${cart.id}/complete`, {}, ctx.storeHeaders())
            .catch((e: any) => e.response)
          expect(completed.data.type).not.toBe("order")
          expect(await orders()).toHaveLength(0)
          expect(await creations()).toBe(0)
        }
      )

      it.each(OUTSIDE)(
        "refuses at completion, before the order exists, a cart %s under the limits in force when it completes",
        async (_name, limits, message) => {
          const cart = await prepareCart(api, store())
          await selectRefpay(api, store(), cart)
          // Medusa 2.21.2 creates the order before it asks the provider to authorise: a refusal from the cart
          // completion's validate hook is one the provider's authorisation never sees.
          const provider = await refpayProviderFor(ctx.getContainer(), REFPAY_PROVIDER_ID)
          const authorizations = jest.spyOn(provider, "authorizePayment")
          try {
            await withLimits(limits, async () => {
              const completion = api.post(`/store/carts/${cart.id}/complete`, {}, ctx.storeHeaders())
              expect(await refusalOf(completion)).toEqual({ status: 400, message })
            })
            expect(authorizations).not.toHaveBeenCalled()
          } finally {
            authorizations.mockRestore()
          }
          expect(await orders()).toHaveLength(0)
          expect(await creations()).toBe(0)
          // Nothing was left behind: within the limits again, the same cart completes with one reference.
          expect((await completeCart(api, store(), cart.id)).type).toBe("order")
          expect(await creations()).toBe(1)
        }
      )

      it("refuses in the provider's authorisation, before calling the platform, a session whose amount the limits exclude", async () => {
        const cart = await prepareCart(api, store())
        const collection = await selectRefpay(api, store(), cart)
        const { data } = collection.payment_sessions[0]
        const provider = await refpayProviderFor(ctx.getContainer(), REFPAY_PROVIDER_ID)
        await withLimits({ maxAmountCents: 2497 }, async () => {
          await expect(provider.authorizePayment({ data })).rejects.toThrow(
            "A REFPAY reference cannot be for more than €24.97, and this amount is €24.98."
          )
        })
        expect(await creations()).toBe(0)
      })

      it("issues references for carts exactly at the minimum and exactly at the maximum", async () => {
        await withLimits({ minAmountCents: 2498 }, async () => {
          expect(await refusalOf(placeRefpayOrder(api, store()))).toBe("not refused")
        })
        // Three 0.10 EUR items and 4.99 shipping: 5.29 EUR.
        await withLimits({ maxAmountCents: 529 }, async () => {
          const items = [{ variant_id: store().cheapVariantId, quantity: 3 }]
          expect(await refusalOf(placeRefpayOrder(api, store(), { items }))).toBe("not refused")
        })
        const amounts = ((await control("GET", "/payments")).payments as any[]).map((p) => p.amount).sort()
        expect(amounts).toEqual(["2498", "529"])
        expect(await orders()).toHaveLength(2)
      })
    })

    describe("What a shopper sees when REFPAY fails at checkout (store API)", () => {
      const { api, adminHeaders, control, store } = ctx

      /** POST /store/carts/:id/complete as a storefront sends it, whatever the status. */
      async function complete(cartId: string) {
        return api.post(`/store/carts/${cartId}/complete`, {}, ctx.storeHeaders()).catch((e: any) => e.response)
      }

      it.each([
        ["the platform refuses the shop's credentials (401)", { status: 401 }],
        ["the platform is down (500 on every retry)", { status: 500 }],
        ["the platform rate-limits the shop (429)", { status: 429 }],
        [
          "the platform refuses the request with its own detail (400)",
          {
            status: 400,
            body: {
              error_code: "INVALID_CUSTOMER",
              message: "customer.phone_number is not valid",
              details: [{ field: "phone_number", message: "bad format" }],
            },
          },
        ],
        ["the platform answers a body the client cannot read (200 {})", { status: 200, body: {} }],
      ])("answers a payment error with one generic sentence, no platform detail, when %s", async (_name, fault) => {
        const cart = await prepareCart(api, store())
        await selectRefpay(api, store(), cart)
        await control("POST", "/faults", { path: CREATE_PATH, method: "POST", count: 10, ...fault })

        const answer = await complete(cart.id)
        // Medusa's answer for a payment authorisation error: 200 with the cart, for the storefront to show the message.
        expect({ status: answer.status, type: answer.data.type, error: answer.data.error }).toEqual({
          status: 200,
          type: "cart",
          error: { message: SHOPPER_MESSAGE, name: "Error", type: "payment_authorization_error" },
        })
        expect(JSON.stringify(answer.data)).not.toMatch(DETAIL)
        expect((await api.get(`/admin/orders?fields=id`, adminHeaders())).data.orders).toHaveLength(0)

        await control("DELETE", "/faults")
        expect((await complete(cart.id)).data.type).toBe("order")
      })

      it("keeps the actionable refusals a shopper can fix: euros only (payment-sessions) and Portugal only (complete)", async () => {
        const usd = await prepareCart(api, store(), { regionId: store().usdRegion.id })
        const currency = await selectRefpay(api, store(), usd).catch((e: any) => e.response)
        expect(currency.status).toBe(400)
        expect(currency.data.message).toMatch(/^REFPAY accepts payments in euros only; this cart is in USD\./)

        const cart = await prepareCart(api, store(), { billingAddress: { ...LISBON_ADDRESS, country_code: "es" } })
        await selectRefpay(api, store(), cart)
        const country = await complete(cart.id)
        expect(country.status).toBe(400)
        expect(country.data.message).toMatch(/^REFPAY is available in Portugal only: the billing address is in ES\./)
      })
    })
  },
  {}
)

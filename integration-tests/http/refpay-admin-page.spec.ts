import { randomUUID } from "node:crypto"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { request } from "undici"
import { createAdminAndLogin } from "../fixtures/admin"
import {
  ADMIN_ROUTES,
  ADMIN_SUITE_CREDENTIALS,
  ADMIN_SUITE_WEBHOOK_SECRET,
  adminSuiteOptions,
  expectNoCredential,
  refpayAdminApi,
} from "../fixtures/refpay-admin"
import { approvedEvent, captureCount, refpayOrders } from "../fixtures/refpay-orders"
import { waitFor } from "../fixtures/wait"
import { keepDatabaseBetweenTests } from "../fixtures/database-restore"
import { refpayIntegrationSuite } from "../harness"
import { inEnglish, testEventTextIn, warningIn } from "../fixtures/connection-texts"
import { en } from "../../src/admin/i18n/en"
import { REFPAY_MODULE, type RefpayModuleService } from "../../src/modules/refpay"
import { refpayProvider } from "../../src/providers/refpay/refpay-providers"
import { Migration20261128180000 } from "../../src/modules/refpay/migrations/Migration20261128180000"
import { Migration20261129090000 } from "../../src/modules/refpay/migrations/Migration20261129090000"

jest.setTimeout(120 * 1000)

// From refpay-admin-webhooks.spec.ts:
const STATUS_PATH = "/dpm/hub-payment-info/v1/payments/info/"

/**
 * The admin's REFPAY page in a shop with one account (pp_refpay_refpay) and the admin suites' distinctive
 * credentials. The settings tests run first: the rate-limit test counts the connection test before it.
 */
refpayIntegrationSuite(
  "REFPAY admin page: settings, connection test, webhook URL, deliveries and test events (one app, the admin suites' credentials)",
  (ctx) => {
    describe("REFPAY admin page: settings as resolved, and the connection test", () => {
      keepDatabaseBetweenTests()
      const { api, control, sandbox } = ctx
      const admin = refpayAdminApi(ctx)

      it("answers 401 on every REFPAY admin route without an admin session, and with a wrong token", async () => {
        for (const route of ADMIN_ROUTES) {
          for (const headers of [{}, { headers: { authorization: "Bearer not-a-real-token" } }]) {
            const answer =
              route.method === "GET" ? await admin.get(route.path, headers) : await admin.post(route.path, {}, headers)
            expect({ route: route.path, status: answer.status }).toEqual({ route: route.path, status: 401 })
            expectNoCredential(answer.data)
          }
        }
      })

      it("shows the configuration as the server resolved it, each credential only as set or missing", async () => {
        const { status, data } = await admin.settings()
        expect(status).toBe(200)
        expect(data.accounts).toEqual([{ provider_id: "pp_refpay_refpay", account: null, environment: "sandbox" }])
        expect(data.settings).toEqual({
          provider_id: "pp_refpay_refpay",
          account: null,
          environment: "sandbox",
          token_interface: "t1",
          urls: {
            auth_url: sandbox().authUrl,
            backoffice_url: null,
            payments_url: sandbox().paymentsUrl,
            sandbox_hosts: [],
          },
          paths: {
            cancel_path: "/dpm/payments-gwproxy/v2/payments/cancel",
            payment_info_path: "/dpm/hub-payment-info/v1/payments/info/{payment_id}",
          },
          t2_authorization_form: null,
          credentials: { client_id: "set", client_secret: "set", channel: "set", scope: "set", webhook_secret: "set" },
          required_credentials: ["client_id", "client_secret"],
          // The harness's REFPAY_MAX_RETRIES=1 and REFPAY_REQUEST_TIMEOUT_MS=3000; the rest are the defaults.
          timeouts: { connect_ms: 5000, request_ms: 3000, body_ms: 10000 },
          retries: { max_retries: 1 },
          expiry: {
            expiry_days: 7,
            expiry_grace_hours: 24,
            expiry_policy: "renew",
            max_renewals: 1,
            reminder_hours_before_expiry: 24,
            cancel_expired_orders: true,
          },
          poll: { poll_batch_size: 100, poll_interval_minutes: 10, late_settlement_days: 3 },
          late_payments: { auto_refund_late_payments: false },
          variables: expect.objectContaining({
            clientSecret: "REFPAY_CLIENT_SECRET",
            expiryPolicy: "REFPAY_EXPIRY_POLICY",
          }),
        })
        const text = JSON.stringify(data)
        for (const value of [...Object.values(ADMIN_SUITE_CREDENTIALS), ADMIN_SUITE_WEBHOOK_SECRET])
          expect(text).not.toContain(value)
        // Not a prefix either (the exact whitelist above leaves no room for a length).
        expect(text).not.toMatch(/admin-suite/)
      })

      it("passes the connection test: a token is issued and the made-up payment is unknown (404 PAYMENT_NOT_FOUND), without touching the shared token cache", async () => {
        const provider = await refpayProvider(ctx.getContainer())
        const sharedTokensBefore = provider.client.tokenRequests()
        const tokenCallsBefore = (await control("GET", "/requests?path=/auth/token")).requests.length

        const { status, data } = await admin.testConnection()

        expect(status).toBe(200)
        expect(data.connection).toMatchObject({
          provider_id: "pp_refpay_refpay",
          ok: true,
          environment: "sandbox",
          token_interface: "t1",
          problem: null,
          hint: null,
          platform_detail: null,
          steps: [
            { step: "token", result: "ok", url: `${sandbox().authUrl}/token` },
            { step: "payments", result: "ok", http_status: 404, code: "PAYMENT_NOT_FOUND" },
          ],
        })
        expect(inEnglish(data.connection.summary)).toMatch(/issued a token.*accepted it.*404 PAYMENT_NOT_FOUND/)
        expect(data.connection.steps[1].url).toMatch(
          new RegExp(`^${sandbox().paymentsUrl}/dpm/hub-payment-info/v1/payments/info/[0-9a-f-]{36}$`)
        )
        expectNoCredential(data)
        // Its own client: one token request on the platform, none from the payments' shared cache.
        expect((await control("GET", "/requests?path=/auth/token")).requests.length).toBe(tokenCallsBefore + 1)
        expect(provider.client.tokenRequests()).toBe(sharedTokensBefore)
      })

      it("allows 5 connection tests a minute per admin user, then answers 429 with Retry-After; another admin is not held back", async () => {
        const statuses: number[] = []
        let refused: any
        // The test above used one of this admin's five.
        for (let i = 0; i < 6 && !refused; i++) {
          const answer = await admin.testConnection()
          statuses.push(answer.status)
          if (answer.status === 429) refused = answer
        }
        expect(statuses).toEqual([200, 200, 200, 200, 429])
        expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1)
        expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60)
        expect(refused.data.message).toMatch(/at most 5 a minute/)

        const other = await createAdminAndLogin(
          ctx.getContainer(),
          api as any,
          "second-admin@loja.test",
          "fake-second-password"
        )
        const answer = await admin.testConnection(other)
        expect(answer.status).toBe(200)
        expect(answer.data.connection.ok).toBe(true)
      })

      it("refuses a connection test body with anything but the account (400): it only ever uses the configured credentials", async () => {
        expect((await admin.post("/admin/refpay/connection-test", { client_secret: "x" })).status).toBe(400)
        expect((await admin.post("/admin/refpay/connection-test", { provider_id: "stripe" })).status).toBe(400)
        const unknown = await admin.post("/admin/refpay/connection-test", { provider_id: "pp_refpay_elsewhere" })
        expect(unknown.status).toBe(404)
        expect(unknown.data.message).toMatch(/not a REFPAY account of this shop \(pp_refpay_refpay\)/)
        expect((await admin.get("/admin/refpay/settings?provider_id=pp_refpay_elsewhere")).status).toBe(404)
      })
    })

    describe("REFPAY admin page: webhook URL, deliveries, refused deliveries, warnings and sandbox test events", () => {
      const { control } = ctx
      const admin = refpayAdminApi(ctx)
      const { shopUrl, placeOrder, postToPluginRoute, waitForOrder } = refpayOrders(ctx)
      const secretHeader = { "x-refpay-webhook-secret": ADMIN_SUITE_WEBHOOK_SECRET }

      /** The sandbox delivers its webhooks to this shop's plugin route, with the shop's secret unless told otherwise. */
      const deliverHere = (secret = ADMIN_SUITE_WEBHOOK_SECRET) =>
        control("POST", "/webhooks/config", { url: `${shopUrl()}/hooks/refpay`, secret })

      async function deliveriesOf(paymentId: string) {
        return (await admin.deliveries(`payment_id=${paymentId}`)).data.deliveries as any[]
      }

      async function postToMedusaRoute(body: unknown, headers: Record<string, string>) {
        const response = await request(`${shopUrl()}/hooks/payment/refpay_refpay`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        })
        await response.body.text()
        return response.statusCode
      }

      /** Moves the reference's issue time back, as if the order had been placed `ms` ago. */
      async function issuedAgo(orderId: string, ms: number) {
        const { data } = await ctx.api.get(
          `/admin/orders/${orderId}?fields=*payment_collections.payment_sessions`,
          ctx.adminHeaders()
        )
        const sessionId = data.order.payment_collections[0].payment_sessions[0].id
        await ctx
          .getContainer()
          .resolve(ContainerRegistrationKeys.PG_CONNECTION)
          .raw(
            `update payment_session set data = jsonb_set(data, '{refpay,created_at}', to_jsonb(?::text)) where id = ?`,
            [new Date(Date.now() - ms).toISOString(), sessionId]
          )
      }

      it("gives the URL to register (from this request's host, Medusa having no absolute backend URL) and how deliveries authenticate", async () => {
        const { status, data } = await admin.webhooks()
        expect(status).toBe(200)
        expect(data.webhooks).toMatchObject({
          url: `${shopUrl()}/hooks/refpay`,
          medusa_url: `${shopUrl()}/hooks/payment/refpay_refpay`,
          url_source: "request",
          authentication: { header: "x-refpay-webhook-secret", secret: "set", variable: "REFPAY_WEBHOOK_SECRET" },
          last_delivery_at: null,
          deliveries_recorded: 0,
          waiting_payments: 0,
          refusals: [],
          malformed: [],
          warnings: [],
          test_event_available: true,
        })
        expect(data.webhooks.authentication.basic).toMatch(/HTTP Basic.*password/)
        expectNoCredential(data)
      })

      it("lists deliveries newest first with their order and what became of each: processed, duplicate, unknown payment, not processed", async () => {
        await deliverHere()
        const { orderId, refpay } = await placeOrder()
        await waitFor(
          async () => (await deliveriesOf(refpay.payment_id)).length === 1,
          20_000,
          "the PENDING_TRANSACTIONS delivery"
        )

        // The same event twice: recorded once, delivered twice.
        const twice = approvedEvent(refpay, `evt-twice-${randomUUID()}`)
        await control("POST", `/payments/${refpay.payment_id}/pay`)
        await waitFor(
          async () => (await deliveriesOf(refpay.payment_id)).length === 2,
          20_000,
          "the APPROVED_TRANSACTIONS delivery"
        )
        expect((await postToPluginRoute(twice, secretHeader)).status).toBe(200)
        expect((await postToPluginRoute(twice, secretHeader)).body).toMatchObject({ duplicate: true })
        // A payment nobody here knows.
        const stranger = randomUUID()
        expect(
          (
            await postToPluginRoute(
              { event_id: `evt-stranger-${randomUUID()}`, event_type: "APPROVED_TRANSACTIONS", payment_id: stranger },
              secretHeader
            )
          ).status
        ).toBe(200)
        // The platform cannot be read: recorded, answered 503, not processed.
        await control("POST", "/faults", {
          path: `${STATUS_PATH}${refpay.payment_id}`,
          method: "GET",
          count: 10,
          status: 503,
        })
        const failing = approvedEvent(refpay, `evt-failing-${randomUUID()}`)
        expect((await postToPluginRoute(failing, secretHeader)).status).toBe(503)
        await control("DELETE", "/faults")

        const { status, data } = await admin.deliveries()
        expect(status).toBe(200)
        expect(data).toMatchObject({ count: 5, limit: 50, offset: 0 })
        expect(data.deliveries.map((d: any) => [d.event_type, d.status])).toEqual([
          ["APPROVED_TRANSACTIONS", "not_processed"],
          ["APPROVED_TRANSACTIONS", "unknown_payment"],
          ["APPROVED_TRANSACTIONS", "duplicate"],
          ["APPROVED_TRANSACTIONS", "processed"],
          ["PENDING_TRANSACTIONS", "processed"],
        ])
        const ours = data.deliveries.filter((d: any) => d.payment_id === refpay.payment_id)
        for (const delivery of ours)
          expect(delivery.order).toMatchObject({ id: orderId, display_id: expect.any(Number) })
        expect(data.deliveries.find((d: any) => d.payment_id === stranger)).toMatchObject({
          order: null,
          order_id: null,
          action: "unknown_payment",
          route: "refpay",
        })
        expect(data.deliveries.find((d: any) => d.status === "duplicate")).toMatchObject({
          deliveries: 2,
          action: expect.any(String),
        })
        expect(data.deliveries.find((d: any) => d.status === "not_processed")).toMatchObject({
          processed_at: null,
          action: "not_processed",
        })
        // The creation event (PENDING_TRANSACTIONS) is recorded as processed without a status read.
        expect(data.deliveries[4]).toMatchObject({ action: "nothing_to_do", processed_at: expect.any(String) })

        // Filters and pages.
        expect((await admin.deliveries("status=duplicate")).data).toMatchObject({
          count: 1,
          deliveries: [{ status: "duplicate" }],
        })
        expect((await admin.deliveries("status=unknown_payment")).data).toMatchObject({
          count: 1,
          deliveries: [{ payment_id: stranger }],
        })
        expect((await admin.deliveries("status=not_processed")).data.count).toBe(1)
        expect((await admin.deliveries("event_type=PENDING_TRANSACTIONS")).data.count).toBe(1)
        expect((await admin.deliveries(`payment_id=${refpay.payment_id}`)).data.count).toBe(4)
        const page = (await admin.deliveries("limit=2&offset=2")).data
        expect(page).toMatchObject({ count: 5, limit: 2, offset: 2 })
        expect(page.deliveries.map((d: any) => d.id)).toEqual(data.deliveries.slice(2, 4).map((d: any) => d.id))
        expect((await admin.deliveries("limit=51")).status).toBe(400)
        expect((await admin.deliveries("status=everything")).status).toBe(400)

        const { data: setup } = await admin.webhooks()
        expect(setup.webhooks.deliveries_recorded).toBe(5)
        expect(Date.now() - Date.parse(setup.webhooks.last_delivery_at)).toBeLessThan(60_000)
        expectNoCredential(data)
      })

      it("counts deliveries refused for their secret, through both webhook routes and by reason, keeps nothing they sent, and warns", async () => {
        const { refpay } = await placeOrder()
        const event = approvedEvent(refpay, `evt-refused-${randomUUID()}`)
        const basic = (password: string) => ({
          authorization: `Basic ${Buffer.from(`refpay:${password}`).toString("base64")}`,
        })

        expect((await postToPluginRoute(event, { "x-refpay-webhook-secret": "not-the-shop-secret" })).status).toBe(401)
        expect((await postToPluginRoute(event, basic("also-not-the-shop-secret"))).status).toBe(401)
        expect((await postToPluginRoute(event, {})).status).toBe(401)
        expect(await postToMedusaRoute(event, { "x-refpay-webhook-secret": "medusa-route-wrong-secret" })).toBe(200) // Medusa's route always answers 200

        const { data } = await admin.webhooks()
        const refusals = Object.fromEntries(data.webhooks.refusals.map((r: any) => [`${r.route}:${r.reason}`, r]))
        expect(Object.keys(refusals).sort()).toEqual([
          "medusa:wrong_secret",
          "refpay:missing_secret",
          "refpay:wrong_secret",
        ])
        expect(refusals["refpay:wrong_secret"]).toMatchObject({ refused_count: 2 })
        expect(refusals["refpay:missing_secret"]).toMatchObject({ refused_count: 1 })
        expect(refusals["medusa:wrong_secret"]).toMatchObject({ refused_count: 1 })
        for (const refusal of data.webhooks.refusals) {
          expect(Object.keys(refusal).sort()).toEqual([
            "first_refused_at",
            "last_refused_at",
            "reason",
            "refused_count",
            "route",
          ])
        }
        expect(data.webhooks.warnings).toEqual([expect.objectContaining({ code: "refused_recently", level: "error" })])
        expect(warningIn(en)(data.webhooks.warnings[0])).toMatch(/4 webhook deliveries were refused \(401\)/)
        const text = JSON.stringify(data)
        for (const presented of ["not-the-shop-secret", "also-not-the-shop-secret", "medusa-route-wrong-secret"])
          expect(text).not.toContain(presented)
        // Nothing refused was recorded as a delivery.
        expect((await admin.deliveries()).data.count).toBe(0)

        // Once a delivery is accepted again, the warning says so and softens.
        expect(
          (await postToPluginRoute(approvedEvent(refpay, `evt-accepted-${randomUUID()}`), secretHeader)).status
        ).toBe(200)
        const after = (await admin.webhooks()).data.webhooks.warnings
        expect(after).toEqual([expect.objectContaining({ code: "refused_recently", level: "warning" })])
        expect(warningIn(en)(after[0])).toMatch(/accepted since/)
      })

      it('processes an authentic delivery whose unused fields have unexpected types (amount 24.98 or "24.98", a 300-character event_id, a numeric status and occurred_at): the paid order is captured, through both webhook routes', async () => {
        const longId = () => `evt-${randomUUID()}-`.padEnd(300, "x")
        const oddEvent = (refpay: { payment_id: string; order_id: string }, amount: unknown) => ({
          ...approvedEvent(refpay, longId()),
          amount,
          status: 7,
          occurred_at: Date.now(),
        })

        // The plugin's webhook route (/hooks/refpay) answers at once.
        const viaPluginRoute = await placeOrder()
        await control("POST", `/payments/${viaPluginRoute.refpay.payment_id}/pay`)
        const answer = await postToPluginRoute(oddEvent(viaPluginRoute.refpay, 24.98), secretHeader)
        expect(answer).toEqual({ status: 200, body: { received: true, processed: true } })
        const order = await waitForOrder(viaPluginRoute.orderId, (o) => o.payment_status === "captured")
        expect(captureCount(order)).toBe(1)
        expect(await deliveriesOf(viaPluginRoute.refpay.payment_id)).toEqual([
          expect.objectContaining({ route: "refpay", status: "processed" }),
        ])

        // Medusa's webhook route goes through the same reading, 5 seconds later.
        const viaMedusaRoute = await placeOrder()
        await control("POST", `/payments/${viaMedusaRoute.refpay.payment_id}/pay`)
        expect(await postToMedusaRoute(oddEvent(viaMedusaRoute.refpay, "24.98"), secretHeader)).toBe(200)
        await waitFor(
          async () => (await deliveriesOf(viaMedusaRoute.refpay.payment_id))[0]?.processed_at != null,
          20_000,
          "Medusa's webhook route's delivery processed"
        )
        expect(await deliveriesOf(viaMedusaRoute.refpay.payment_id)).toEqual([
          expect.objectContaining({ route: "medusa", status: "processed" }),
        ])
        expect(captureCount(await waitForOrder(viaMedusaRoute.orderId, (o) => o.payment_status === "captured"))).toBe(1)
      })

      it("acknowledges (200) and counts authentic deliveries that are not usable REFPAY events (no payment_id, not JSON), through both webhook routes, records none as a delivery, and warns", async () => {
        const noPaymentId = () => ({
          event_id: `evt-${randomUUID()}`,
          event_type: "APPROVED_TRANSACTIONS",
          order_id: "ps_01JD8X2Y3Z4A5B6C7D8E9F0G1H",
          status: "APPROVED",
        })
        const ignored = { received: true, ignored: expect.stringMatching(/payment_id/) }
        expect(await postToPluginRoute(noPaymentId(), secretHeader)).toEqual({ status: 200, body: ignored })
        expect(await postToPluginRoute(noPaymentId(), secretHeader)).toEqual({ status: 200, body: ignored })
        const notJson = await request(`${shopUrl()}/hooks/refpay`, {
          method: "POST",
          headers: { "content-type": "text/plain", ...secretHeader },
          body: "event=APPROVED_TRANSACTIONS&payment_id=1",
        })
        expect(notJson.statusCode).toBe(200)
        expect(await notJson.body.json()).toEqual({ received: true, ignored: expect.stringMatching(/not JSON/) })
        // Without the secret it is refused (401) and counted as a refusal, never as a malformed delivery.
        expect(
          (await postToPluginRoute(noPaymentId(), { "x-refpay-webhook-secret": "not-the-shop-secret" })).status
        ).toBe(401)
        // Medusa's route always answers 200; the count shows what became of the delivery.
        expect(await postToMedusaRoute(noPaymentId(), secretHeader)).toBe(200)

        let webhooks: any
        await waitFor(
          async () => (webhooks = (await admin.webhooks()).data.webhooks).malformed.length === 3,
          20_000,
          "Medusa's webhook route's malformed delivery counted"
        )
        const malformed = Object.fromEntries(webhooks.malformed.map((m: any) => [`${m.route}:${m.reason}`, m]))
        expect(Object.keys(malformed).sort()).toEqual([
          "medusa:no_payment_id",
          "refpay:no_payment_id",
          "refpay:not_json",
        ])
        expect(malformed["refpay:no_payment_id"]).toMatchObject({ received_count: 2 })
        expect(malformed["refpay:not_json"]).toMatchObject({ received_count: 1 })
        expect(malformed["medusa:no_payment_id"]).toMatchObject({ received_count: 1 })
        for (const entry of webhooks.malformed) {
          expect(Object.keys(entry).sort()).toEqual([
            "first_received_at",
            "last_received_at",
            "reason",
            "received_count",
            "route",
          ])
        }
        expect(webhooks.refusals).toEqual([
          expect.objectContaining({ route: "refpay", reason: "wrong_secret", refused_count: 1 }),
        ])
        const warning = webhooks.warnings.find((w: any) => w.code === "malformed_recently")
        expect(warning).toMatchObject({ level: "warning" })
        expect(warningIn(en)(warning)).toMatch(/^4 authentic webhook deliveries were not usable REFPAY events/)
        expect((await admin.deliveries()).data.count).toBe(0)
        expectNoCredential(webhooks)
      })

      it("counts concurrent refusals exactly (one atomic upsert each)", async () => {
        const event = { event_id: "evt-flood", event_type: "APPROVED_TRANSACTIONS", payment_id: randomUUID() }
        const answers = await Promise.all(
          Array.from({ length: 12 }, () => postToPluginRoute(event, { "x-refpay-webhook-secret": "flood" }))
        )
        expect(answers.every((a) => a.status === 401)).toBe(true)
        const { data } = await admin.webhooks()
        expect(data.webhooks.refusals).toEqual([
          expect.objectContaining({ route: "refpay", reason: "wrong_secret", refused_count: 12 }),
        ])
      })

      it("warns when no delivery has arrived while a payment waits past the first minutes, and not before", async () => {
        // The sandbox was reset: it delivers no webhooks.
        const { orderId } = await placeOrder()
        let warnings = (await admin.webhooks()).data.webhooks.warnings
        expect(warnings).toEqual([])

        await issuedAgo(orderId, 60 * 60 * 1000)
        const { data } = await admin.webhooks()
        expect(data.webhooks).toMatchObject({ waiting_payments: 1, last_delivery_at: null })
        warnings = data.webhooks.warnings
        expect(warnings).toEqual([expect.objectContaining({ code: "no_recent_delivery", level: "warning" })])
        expect(warningIn(en)(warnings[0])).toMatch(/No webhook delivery has arrived ever, while 1 payment is waiting/)
      })

      it("sends a test event through the sandbox and shows it arrive as a test delivery", async () => {
        await deliverHere()
        const { status, data } = await admin.sendTestEvent()
        expect(status).toBe(200)
        expect(data.test_event).toMatchObject({
          sent: true,
          sandbox_webhook_url: `${shopUrl()}/hooks/refpay`,
          delivers_to_this_shop: true,
          order_id: expect.stringMatching(/^refpay-test-[0-9a-f]{16}$/),
          message: { code: "sent_to_this_shop", params: {} },
        })
        const paymentId = data.test_event.payment_id
        let progress: any
        await waitFor(
          async () => (progress = (await admin.testEvent(paymentId)).data.test_event).arrived,
          20_000,
          "the test delivery"
        )
        expect(progress.deliveries).toEqual([
          expect.objectContaining({
            event_type: "PENDING_TRANSACTIONS",
            status: "test",
            payment_id: paymentId,
            order: null,
          }),
        ])
        await waitFor(
          async () => (await admin.testEvent(paymentId)).data.test_event.sandbox_summary?.code === "delivered",
          10_000,
          "the sandbox's report"
        )
        expect((await admin.deliveries("status=test")).data.count).toBe(1)
        expectNoCredential(data)
      })

      it("explains a test event the shop refused: the sandbox's secret is not REFPAY_WEBHOOK_SECRET", async () => {
        await deliverHere("a-different-sandbox-secret")
        const { data } = await admin.sendTestEvent()
        expect(data.test_event.sent).toBe(true)
        let progress: any
        await waitFor(
          async () =>
            (progress = (await admin.testEvent(data.test_event.payment_id)).data.test_event).sandbox_summary?.code ===
            "refused_secret",
          20_000,
          "the sandbox's refused attempt"
        )
        expect(progress.arrived).toBe(false)
        expect(testEventTextIn(en)(progress.sandbox_summary)).toMatch(
          /refused the sandbox's delivery \(401\): the sandbox's webhook secret is not REFPAY_WEBHOOK_SECRET/
        )
        expect(progress.sandbox_attempts[0]).toMatchObject({ status: 401, error: null })
        const { data: setup } = await admin.webhooks()
        expect(setup.webhooks.refusals).toEqual([expect.objectContaining({ route: "refpay", reason: "wrong_secret" })])
        expect(JSON.stringify(progress)).not.toContain("a-different-sandbox-secret")
      })

      it("sends nothing when the sandbox delivers no webhooks, and says how to start it (409)", async () => {
        const before = (await control("GET", "/payments")).payments.length
        const { status, data } = await admin.sendTestEvent()
        expect(status).toBe(409)
        expect(data.test_event).toMatchObject({ sent: false, reason: "no_webhook_url" })
        expect(data.test_event.message).toEqual({
          code: "no_webhook_url",
          params: { shop_webhook_url: `${shopUrl()}/hooks/refpay` },
        })
        expect(testEventTextIn(en)(data.test_event.message)).toContain(`--webhook-url ${shopUrl()}/hooks/refpay`)
        expect((await control("GET", "/payments")).payments.length).toBe(before)
      })
    })

    describe("REFPAY module migration: `door` renamed `route`, refusals and malformed deliveries in one table", () => {
      const pg = () => ctx.getContainer().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
      const run = async (direction: "up" | "down") => {
        // The migration's statements only (addSql): it needs neither driver nor config to list them.
        const migration = new Migration20261128180000(undefined as never, undefined as never)
        await migration[direction]()
        for (const sql of migration.getQueries()) await pg().raw(sql as string)
      }
      const rows = async (table: string, columns: string[]) => pg()(table).select(columns).orderBy("id")

      it("keeps every event's route and every refused and malformed count when migrated down to the old tables and up again", async () => {
        // Each test starts on empty tables: record through both routes, refused and malformed, some more than once.
        const module = ctx.getContainer().resolve<RefpayModuleService>(REFPAY_MODULE)
        for (const route of ["medusa", "refpay"] as const) {
          const event = { event_type: "APPROVED_TRANSACTIONS", payment_id: `pay-${route}`, route }
          await module.recordWebhookEvent({ ...event, event_key: `migration-${route}` })
          await module.recordWebhookEvent({ ...event, event_key: `migration-${route}` })
          await module.recordWebhookRefusal({ route, reason: "wrong_secret", provider_id: "pp_refpay_refpay" })
          await module.recordWebhookRefusal({ route, reason: "missing_secret" })
          await module.recordMalformedWebhook({ route, reason: "no_payment_id", provider_id: "pp_refpay_refpay" })
        }
        await module.recordMalformedWebhook({
          route: "refpay",
          reason: "no_payment_id",
          provider_id: "pp_refpay_refpay",
        })
        const counted = ["id", "provider_id", "reason", "created_at", "updated_at", "deleted_at"]
        const events = await rows("refpay_webhook_event", ["id", "route", "deliveries"])
        const rejectionColumns = [
          ...counted,
          "route",
          "kind",
          "delivery_count",
          "first_received_at",
          "last_received_at",
        ]
        const rejections = await rows("refpay_webhook_rejection", rejectionColumns)
        expect(new Set(events.map((e) => e.route))).toEqual(new Set(["medusa", "refpay"]))
        expect(new Set(rejections.map((r) => r.kind))).toEqual(new Set(["refused", "malformed"]))

        await run("down")
        expect(await rows("refpay_webhook_event", ["id", "door", "deliveries"])).toEqual(
          events.map(({ route, ...e }) => ({ ...e, door: route }))
        )
        const refusals = await rows("refpay_webhook_refusal", [
          ...counted,
          "door",
          "refused_count",
          "first_refused_at",
          "last_refused_at",
        ])
        expect(refusals).toEqual(
          rejections
            .filter((r) => r.kind === "refused")
            .map(({ route, kind: _, delivery_count, first_received_at, last_received_at, ...r }) => ({
              ...r,
              door: route,
              refused_count: delivery_count,
              first_refused_at: first_received_at,
              last_refused_at: last_received_at,
            }))
        )
        const malformed = await rows("refpay_webhook_malformed", [
          ...counted,
          "door",
          "received_count",
          "first_received_at",
          "last_received_at",
        ])
        expect(malformed).toEqual(
          rejections
            .filter((r) => r.kind === "malformed")
            .map(({ route, kind: _, delivery_count, ...r }) => ({ ...r, door: route, received_count: delivery_count }))
        )
        expect(await pg().raw(`select to_regclass('refpay_webhook_rejection') as t`)).toMatchObject({
          rows: [{ t: null }],
        })

        await run("up")
        expect(await rows("refpay_webhook_event", ["id", "route", "deliveries"])).toEqual(events)
        expect(await rows("refpay_webhook_rejection", rejectionColumns)).toEqual(rejections)
        for (const old of ["refpay_webhook_refusal", "refpay_webhook_malformed"])
          expect(await pg().raw(`select to_regclass('${old}') as t`)).toMatchObject({ rows: [{ t: null }] })
        // And the module counts through the folded table again.
        const { data } = await refpayAdminApi(ctx).webhooks()
        expect(data.webhooks.refusals).toHaveLength(4)
        await module.recordMalformedWebhook({
          route: "medusa",
          reason: "no_payment_id",
          provider_id: "pp_refpay_refpay",
        })
        expect(await module.listMalformedWebhooks("pp_refpay_refpay")).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ route: "medusa", reason: "no_payment_id", received_count: 2 }),
            expect.objectContaining({ route: "refpay", reason: "no_payment_id", received_count: 2 }),
          ])
        )
      })
    })

    describe("REFPAY module migration: `watch_until` renamed `check_until`, `alerted_fact` renamed `last_alert`", () => {
      const pg = () => ctx.getContainer().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
      const run = async (direction: "up" | "down") => {
        const migration = new Migration20261129090000(undefined as never, undefined as never)
        await migration[direction]()
        for (const sql of migration.getQueries()) await pg().raw(sql as string)
      }
      const checks = async (columns: string[]) =>
        pg()("refpay_payment_check")
          .select(["session_id", ...columns])
          .orderBy("session_id")

      it("keeps every payment check's end of checks and last alert when migrated down and up again", async () => {
        await pg().raw(
          `insert into refpay_payment_check (id, session_id, provider_id, check_until, next_check_at, failures, last_alert)
           values ('rpchk_migration_a', 'payses_migration_a', 'pp_refpay_refpay', '2026-12-01T10:00:00Z', now(), 0, 'amount_mismatch:2499'),
                  ('rpchk_migration_b', 'payses_migration_b', 'pp_refpay_refpay', null, now(), 2, null)`
        )
        const before = await checks(["check_until", "last_alert"])
        expect(before).toHaveLength(2)
        expect(before[0]).toMatchObject({ session_id: "payses_migration_a", last_alert: "amount_mismatch:2499" })

        await run("down")
        expect(await checks(["watch_until", "alerted_fact"])).toEqual(
          before.map(({ check_until, last_alert, ...c }) => ({
            ...c,
            watch_until: check_until,
            alerted_fact: last_alert,
          }))
        )

        await run("up")
        expect(await checks(["check_until", "last_alert"])).toEqual(before)
        // And the module reads the renamed columns again.
        const module = ctx.getContainer().resolve<RefpayModuleService>(REFPAY_MODULE)
        expect(await module.getPaymentCheck("payses_migration_a")).toMatchObject({
          check_until: before[0]!.check_until,
          last_alert: "amount_mismatch:2499",
        })
      })
    })
  },
  adminSuiteOptions()
)

import { request } from "undici"
import { pollRefpayPayments } from "../../src/sync-triggers/poll/poll"
import { refpayProviderFor } from "../../src/providers/refpay/refpay-providers"
import { createAdminAndLogin } from "../fixtures/admin"
import { placeRefpayOrder } from "../fixtures/checkout"
import { accountSandbox } from "../fixtures/porto-account"
import {
  ADMIN_SUITE_WEBHOOK_SECRET,
  adminSuiteOptions,
  expectNoCredential,
  refpayAdminApi,
} from "../fixtures/refpay-admin"
import { refpayOrders, session } from "../fixtures/refpay-orders"
import { t2Account, t2CheckoutToPaidTests } from "../fixtures/t2-suite"
import { itOnSeededDatabase, keepDatabaseBetweenTests } from "../fixtures/database-restore"
import { refpayIntegrationSuite } from "../harness"
import { inEnglish } from "../fixtures/connection-texts"
import { REFPAY_MODULE, type RefpayModuleService } from "../../src/modules/refpay"
import { RETRY_EVENTS_AFTER_MS } from "../../src/sync-triggers/webhook/retry-webhook-events"
import { waitFor } from "../fixtures/wait"

jest.setTimeout(180 * 1000)

const MINUTE = 60_000
const STATUS_PATH = "/dpm/hub-payment-info/v1/payments/info/"
/** Porto answers a delivery whose sync is still running after this long (Lisboa, the harness's 30 s). */
const PORTO_ANSWER_WITHIN_MS = 300
const PORTO_SECRET = "admin-accounts-porto-webhook-secret"
const PORTO = {
  clientId: "admin-accounts-porto-id",
  clientSecret: "admin-accounts-porto-secret",
  channel: "admin-accounts-porto-channel",
  scope: "payments admin-accounts-porto-scope",
  entity: "54321",
}

/**
 * One shop with several REFPAY accounts, each its own seller account (one app boot for all of them):
 * - pp_refpay_lisboa: the harness's sandbox, the unprefixed REFPAY_* variables (the admin suites' distinctive
 *   credentials, so "no secret in any answer" can be checked);
 * - pp_refpay_porto: a second sandbox that knows only Porto's credential, the REFPAY_PORTO_* variables;
 * - pp_refpay_restricted: the harness's sandbox with its limited credential set (scope "reports"), through T2;
 * - pp_refpay_refused: credentials the platform refuses (a wrong client secret);
 * - pp_refpay_unreachable: a token service on a closed loopback port (port 1: closed on any machine that runs these);
 * - pp_refpay_t2bearer, pp_refpay_t2bare: T2 tokens, each on a sandbox that accepts only its Authorization form.
 * Every payment is created, read and confirmed through its own account.
 */
// Admin answers list accounts sorted, and the page opens on the first: every other name sorts after Lisboa.
const ACCOUNTS = ["lisboa", "porto", "restricted", "refused", "unreachable", "t2bearer", "t2bare"]
// A held status read stays held until the test lets it go (the harness's 3 s request timeout would end it first).
const porto = accountSandbox("porto", PORTO, PORTO_SECRET, {
  env: { WEBHOOK_ANSWER_WITHIN_MS: String(PORTO_ANSWER_WITHIN_MS), REQUEST_TIMEOUT_MS: "20000" },
})
const t2bearer = t2Account("t2bearer", "bearer")
const t2bare = t2Account("t2bare", "bare")

refpayIntegrationSuite(
  "REFPAY with several accounts: seller accounts, T2, refused and unreachable platforms",
  (ctx) => {
    const { api, control, store } = ctx
    const orders = refpayOrders(ctx)
    const admin = refpayAdminApi(ctx)
    const { shopUrl } = orders
    const portoControl = porto.control

    describe("two seller accounts: each account its own client, secret, webhooks and poll", () => {
      keepDatabaseBetweenTests()
      const placeWith = async (account: "lisboa" | "porto") => {
        const { completion } = await placeRefpayOrder(api, store(), { providerId: `pp_refpay_${account}` })
        const order = await orders.adminOrder(completion.order.id)
        return { orderId: order.id as string, session: session(order) }
      }
      const post = async (path: string, body: unknown, secret: string) => {
        const response = await request(`${orders.shopUrl()}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-refpay-webhook-secret": secret },
          body: JSON.stringify(body),
        })
        await response.body.text()
        return response.statusCode
      }

      beforeEach(async () => {
        await control("POST", "/webhooks/config", {
          url: `${orders.shopUrl()}/hooks/refpay/lisboa`,
          secret: ADMIN_SUITE_WEBHOOK_SECRET,
        })
        await portoControl("POST", "/webhooks/config", {
          url: `${orders.shopUrl()}/hooks/refpay/porto`,
          secret: PORTO_SECRET,
        })
      })

      it("creates each reference on its own account's platform and captures each through its own webhooks", async () => {
        const lisboa = await placeWith("lisboa")
        const portoOrder = await placeWith("porto")
        expect(lisboa.session.provider_id).toBe("pp_refpay_lisboa")
        expect(portoOrder.session.provider_id).toBe("pp_refpay_porto")
        expect(portoOrder.session.data.refpay.entity).toBe("54321")
        expect((await control("GET", "/payments")).payments.map((p: any) => p.payment_id)).toEqual([
          lisboa.session.data.refpay.payment_id,
        ])
        expect((await portoControl("GET", "/payments")).payments.map((p: any) => p.payment_id)).toEqual([
          portoOrder.session.data.refpay.payment_id,
        ])

        await control("POST", `/payments/${lisboa.session.data.refpay.payment_id}/pay`)
        await portoControl("POST", `/payments/${portoOrder.session.data.refpay.payment_id}/pay`)
        await orders.waitForOrder(lisboa.orderId, (o) => o.payment_status === "captured")
        await orders.waitForOrder(portoOrder.orderId, (o) => o.payment_status === "captured")
      })

      itOnSeededDatabase("captures both accounts' payments through the poll job when no webhook arrives", async () => {
        const lisboa = await placeWith("lisboa")
        const portoOrder = await placeWith("porto")
        await control("POST", "/webhooks/config", { url: null })
        await portoControl("POST", "/webhooks/config", { url: null })
        await control("POST", `/payments/${lisboa.session.data.refpay.payment_id}/pay`)
        await portoControl("POST", `/payments/${portoOrder.session.data.refpay.payment_id}/pay`)

        await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + 11 * MINUTE))
        expect((await orders.adminOrder(lisboa.orderId)).payment_status).toBe("captured")
        expect((await orders.adminOrder(portoOrder.orderId)).payment_status).toBe("captured")
      })

      it("refuses a webhook with one account's secret at the other's webhook route, and at the unnamed route when there are several", async () => {
        const portoOrder = await placeWith("porto")
        await portoControl("POST", `/payments/${portoOrder.session.data.refpay.payment_id}/pay`, {})
        const event = {
          event_id: "evt-crossed-secret",
          event_type: "APPROVED_TRANSACTIONS",
          payment_id: portoOrder.session.data.refpay.payment_id,
          order_id: portoOrder.session.data.refpay.order_id,
        }
        expect(await post("/hooks/refpay/lisboa", event, PORTO_SECRET)).toBe(401)
        expect(await post("/hooks/refpay", event, PORTO_SECRET)).toBe(400)
        // Lisboa's route with Lisboa's secret does not process Porto's payment either.
        expect(await post("/hooks/refpay/lisboa", event, ADMIN_SUITE_WEBHOOK_SECRET)).toBe(200)
        expect(await post("/hooks/refpay/porto", { ...event, event_id: "evt-porto-own" }, PORTO_SECRET)).toBe(200)
        await orders.waitForOrder(portoOrder.orderId, (o) => o.payment_status === "captured")
      })
    })

    describe("a delivery answered before its sync finishes (REFPAY_<ACCOUNT>_WEBHOOK_ANSWER_WITHIN_MS)", () => {
      keepDatabaseBetweenTests()
      const placeAtPorto = async () => {
        const { completion } = await placeRefpayOrder(api, store(), { providerId: "pp_refpay_porto" })
        const order = await orders.adminOrder(completion.order.id)
        return { orderId: order.id as string, paymentId: session(order).data.refpay.payment_id as string }
      }
      const approvedAttempts = async (paymentId: string): Promise<(number | null)[]> => {
        const { events } = await portoControl(
          "GET",
          `/webhooks?payment_id=${paymentId}&event_type=APPROVED_TRANSACTIONS`
        )
        return events[0]?.attempts.map((a: any) => a.status ?? null) ?? []
      }
      const recorded = async (paymentId: string) => {
        const events = ctx.getContainer().resolve<RefpayModuleService>(REFPAY_MODULE)
        const [event] = await events.listRefpayWebhookEvents({
          payment_id: paymentId,
          event_type: "APPROVED_TRANSACTIONS",
        })
        return event
      }

      /** A fault on the payment's next status read at Porto's platform: `hold: true` keeps it until released. */
      const statusReadFault = (paymentId: string, fault: { hold?: boolean; status?: number }) =>
        portoControl<{ id: number }>("POST", "/faults", {
          path: `${STATUS_PATH}${paymentId}`,
          method: "GET",
          count: 1,
          ...fault,
        })
      /** Pays, and waits until the platform has the shop's answer to the first delivery of the APPROVED event. */
      const payAndAwaitAnswer = async (paymentId: string) => {
        await portoControl("POST", `/payments/${paymentId}/pay`)
        await waitFor(
          async () => (await approvedAttempts(paymentId)).length === 1,
          30_000,
          "the first delivery answered"
        )
      }

      beforeEach(async () => {
        await portoControl("POST", "/webhooks/config", {
          url: `${orders.shopUrl()}/hooks/refpay/porto`,
          secret: PORTO_SECRET,
        })
      })

      it("answers 200 while the sync waits on the platform, and records the event processed once the sync finishes: the platform sends nothing again", async () => {
        const { orderId, paymentId } = await placeAtPorto()
        const hold = await statusReadFault(paymentId, { hold: true })
        await payAndAwaitAnswer(paymentId)
        expect(await approvedAttempts(paymentId)).toEqual([200])
        // Answered while the sync's status read is still held: nothing captured, nothing processed yet.
        expect((await orders.adminOrder(orderId)).payment_status).not.toBe("captured")
        expect((await recorded(paymentId))?.processed_at).toBeNull()

        await portoControl("POST", `/faults/${hold.id}/release`)
        await orders.waitForOrder(orderId, (o) => o.payment_status === "captured")
        await waitFor(
          async () => (await recorded(paymentId))?.processed_at != null,
          30_000,
          "the event recorded processed"
        )
        expect(await approvedAttempts(paymentId)).toEqual([200])
      })

      itOnSeededDatabase(
        "processes an answered event whose sync then failed at the poll job's next run, without the platform delivering it again",
        async () => {
          const { orderId, paymentId } = await placeAtPorto()
          // The sync's status read is held past the answer, then fails, and so does the client's one retry.
          const hold = await statusReadFault(paymentId, { hold: true, status: 503 })
          await statusReadFault(paymentId, { status: 503 })
          await payAndAwaitAnswer(paymentId)
          await portoControl("POST", `/faults/${hold.id}/release`)
          await waitFor(
            async () => (await recorded(paymentId))?.outcome === "not_processed",
            30_000,
            "the sync failed after the answer"
          )
          expect((await orders.adminOrder(orderId)).payment_status).not.toBe("captured")

          // The next poll run, once the event has waited RETRY_EVENTS_AFTER_MS (the payment's own check is not due yet).
          await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + RETRY_EVENTS_AFTER_MS + 1_000))
          expect((await orders.adminOrder(orderId)).payment_status).toBe("captured")
          expect(await recorded(paymentId)).toMatchObject({
            processed_at: expect.any(Date),
            outcome: expect.any(String),
          })
          expect((await recorded(paymentId))?.outcome).not.toBe("not_processed")
          expect(await approvedAttempts(paymentId)).toEqual([200])
        }
      )
    })

    describe("finding each account's provider (the plugin's registry, through the payment module's public API)", () => {
      keepDatabaseBetweenTests()
      it("finds every account with its own settings, the same instance each time, and names an unknown one", async () => {
        const container = ctx.getContainer()
        for (const account of ACCOUNTS) {
          const provider = await refpayProviderFor(container, `pp_refpay_${account}`)
          expect(provider.settings.account).toBe(account)
          expect(await refpayProviderFor(container, `pp_refpay_${account}`)).toBe(provider)
        }
        const porto = await refpayProviderFor(container, "pp_refpay_porto")
        expect(porto.settings.clientId).toBe(PORTO.clientId)
        await expect(refpayProviderFor(container, "pp_refpay_nowhere")).rejects.toThrow(
          /REFPAY provider pp_refpay_nowhere is not reachable: the payment module has no provider pp_refpay_nowhere/
        )
      })
    })

    describe("the admin page with several seller accounts", () => {
      it("lists every account and shows each one's own settings, with the account's variable names", async () => {
        const first = (await admin.settings()).data
        expect(first.accounts).toEqual(
          [...ACCOUNTS]
            .sort()
            .map((account) => ({ provider_id: `pp_refpay_${account}`, account, environment: "sandbox" }))
        )
        expect(first.settings).toMatchObject({
          provider_id: "pp_refpay_lisboa",
          urls: { payments_url: ctx.sandbox().paymentsUrl },
        })
        const second = (await admin.get("/admin/refpay/settings?provider_id=pp_refpay_porto")).data.settings
        expect(second).toMatchObject({
          provider_id: "pp_refpay_porto",
          account: "porto",
          urls: { auth_url: porto.sandbox().authUrl, payments_url: porto.sandbox().paymentsUrl },
          credentials: { client_id: "set", client_secret: "set", webhook_secret: "set" },
        })
        expect(second.variables).toMatchObject({
          clientId: "REFPAY_PORTO_CLIENT_ID",
          paymentsUrl: "REFPAY_PORTO_PAYMENTS_URL",
        })
        expectNoCredential([first, second])
        expect(JSON.stringify(second)).not.toMatch(/admin-accounts-porto/)
      })

      it("tests each account's connection against its own platform", async () => {
        const tested = (await admin.post("/admin/refpay/connection-test", { provider_id: "pp_refpay_porto" })).data
          .connection
        expect(tested).toMatchObject({
          provider_id: "pp_refpay_porto",
          ok: true,
          steps: [{ url: `${porto.sandbox().authUrl}/token` }, { http_status: 404 }],
        })
        const log = (await (
          await request(`${porto.sandbox().url}/__sandbox/requests?path=/auth/token`)
        ).body.json()) as { requests: unknown[] }
        expect(log.requests).toHaveLength(1)
        const lisboa = (await admin.testConnection()).data.connection
        expect(lisboa).toMatchObject({ provider_id: "pp_refpay_lisboa", ok: true })
        expect(lisboa.steps[0].url).toBe(`${ctx.sandbox().authUrl}/token`)
      })

      it("gives each account its own webhook URL and counts refused deliveries under the account they were for", async () => {
        const porto1 = (await admin.get("/admin/refpay/webhooks?provider_id=pp_refpay_porto")).data.webhooks
        expect(porto1).toMatchObject({
          provider_id: "pp_refpay_porto",
          url: `${shopUrl()}/hooks/refpay/porto`,
          medusa_url: `${shopUrl()}/hooks/payment/refpay_porto`,
          refusals: [],
        })
        // Lisboa's secret at Porto's route.
        const refused = await request(`${shopUrl()}/hooks/refpay/porto`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-refpay-webhook-secret": ADMIN_SUITE_WEBHOOK_SECRET },
          body: JSON.stringify({
            event_id: "evt-crossed",
            event_type: "APPROVED_TRANSACTIONS",
            payment_id: "00000000-0000-4000-8000-000000000000",
          }),
        })
        await refused.body.text()
        expect(refused.statusCode).toBe(401)

        const porto2 = (await admin.get("/admin/refpay/webhooks?provider_id=pp_refpay_porto")).data.webhooks
        expect(porto2.refusals).toEqual([
          expect.objectContaining({ route: "refpay", reason: "wrong_secret", refused_count: 1 }),
        ])
        expect(porto2.warnings).toEqual([expect.objectContaining({ code: "refused_recently" })])
        const lisboa = (await admin.webhooks()).data.webhooks
        expect(lisboa).toMatchObject({
          provider_id: "pp_refpay_lisboa",
          url: `${shopUrl()}/hooks/refpay/lisboa`,
          refusals: [],
          warnings: [],
        })
        expectNoCredential([porto2, lisboa])
      })
    })

    /**
     * The admin's connection test against accounts the platform does not serve. Each test logs in an admin of
     * its own: a user may run 5 connection tests a minute, and the tests above use some of the suite admin's.
     */
    describe("the connection test of an account the platform does not serve", () => {
      keepDatabaseBetweenTests()
      let headers: { headers: { authorization: string } }
      let admins = 0
      beforeEach(async () => {
        headers = await createAdminAndLogin(
          ctx.getContainer(),
          api as any,
          `connection-admin-${++admins}@loja.test`,
          "fake-connection-password"
        )
      })
      const testConnection = (providerId: string) =>
        admin.post("/admin/refpay/connection-test", { provider_id: providerId }, headers)

      it("the limited credential set (scope reports), through T2: says a token was issued but its scope does not cover payments (403 Forbidden)", async () => {
        const { status, data } = await testConnection("pp_refpay_restricted")
        expect(status).toBe(200)
        expect(data.connection).toMatchObject({
          provider_id: "pp_refpay_restricted",
          ok: false,
          token_interface: "t2",
          problem: "scope_not_granted",
          steps: [
            { step: "token", result: "ok", url: `${ctx.sandbox().backofficeUrl}/v1/token` },
            { step: "payments", result: "failed", http_status: 403, code: "Forbidden" },
          ],
        })
        expect(inEnglish(data.connection.summary)).toBe(
          "A token was issued, but its scope does not cover payments: the payments API answered 403 Forbidden."
        )
        expect(inEnglish(data.connection.hint)).toMatch(/grant the payments scope/)
        expect(data.connection.platform_detail).toMatch(/GENERIC-403/)
        expectNoCredential(data)
      })

      it("credentials the platform refuses: says the token service refused the credentials (401 unauthorized_client), names the variables to check and never shows the secret", async () => {
        const { status, data } = await testConnection("pp_refpay_refused")
        expect(status).toBe(200)
        expect(data.connection).toMatchObject({
          provider_id: "pp_refpay_refused",
          ok: false,
          problem: "credentials_refused",
          steps: [
            { step: "token", result: "failed", http_status: 401, code: "unauthorized_client" },
            { step: "payments", result: "skipped" },
          ],
        })
        expect(inEnglish(data.connection.summary)).toBe(
          "The token service refused the shop's credentials (401 unauthorized_client). No token was issued."
        )
        expect(inEnglish(data.connection.hint)).toMatch(
          /REFPAY_CLIENT_ID and REFPAY_CLIENT_SECRET.*Production credentials do not work in the sandbox/
        )
        expectNoCredential(data)
        expect(JSON.stringify(data)).not.toContain("wrong-client-secret-for-admin-tests")
      })

      it("a token service nobody listens on: says the host could not be reached (ECONNREFUSED: nothing is listening there) and how to fix it", async () => {
        const started = Date.now()
        const { status, data } = await testConnection("pp_refpay_unreachable")
        expect(status).toBe(200)
        expect(data.connection).toMatchObject({
          provider_id: "pp_refpay_unreachable",
          ok: false,
          problem: "host_unreachable",
          platform_detail: null,
          steps: [
            {
              step: "token",
              result: "failed",
              url: "http://127.0.0.1:1/auth/token",
              http_status: null,
              code: "ECONNREFUSED",
            },
            { step: "payments", result: "skipped" },
          ],
        })
        expect(inEnglish(data.connection.summary)).toBe(
          "The token service at http://127.0.0.1:1 could not be reached (ECONNREFUSED: nothing is listening there)."
        )
        expect(inEnglish(data.connection.hint)).toMatch(/start it \(npx refpay-sandbox\)/)
        // One attempt, no retries with backoff: the answer is quick.
        expect(Date.now() - started).toBeLessThan(5_000)
        expectNoCredential(data)
      })
    })

    t2CheckoutToPaidTests(ctx, t2bearer)
    t2CheckoutToPaidTests(ctx, t2bare)
  },
  // Lisboa: the admin suites' distinctive credentials, unprefixed (its sandbox also knows the limited set); the
  // others: their own REFPAY_<ACCOUNT>_* variables.
  adminSuiteOptions({
    REFPAY_TEST_ACCOUNTS: ACCOUNTS.join(","),
    REFPAY_RESTRICTED_TOKEN_INTERFACE: "t2",
    REFPAY_RESTRICTED_CLIENT_ID: "sandbox-limited-client-id",
    REFPAY_RESTRICTED_CLIENT_SECRET: "sandbox-limited-client-secret",
    REFPAY_RESTRICTED_CHANNEL: "sandbox-channel",
    REFPAY_RESTRICTED_SCOPE: "reports",
    REFPAY_REFUSED_CLIENT_SECRET: "wrong-client-secret-for-admin-tests",
    REFPAY_UNREACHABLE_AUTH_URL: "http://127.0.0.1:1/auth",
  })
)

import { refpayProvider } from "../../src/workflows/refpay-sync/provider"
import { createAdminAndLogin } from "../fixtures/admin"
import {
  ADMIN_ROUTES,
  ADMIN_SUITE_CREDENTIALS,
  ADMIN_SUITE_WEBHOOK_SECRET,
  adminSuiteOptions,
  expectNoCredential,
  refpayAdminApi,
} from "../fixtures/refpay-admin"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(120 * 1000)

refpayIntegrationSuite(
  "REFPAY admin page: settings as resolved, and the connection test",
  (ctx) => {
    const { api, control, sandbox } = ctx
    const admin = refpayAdminApi(ctx)

    it("answers 401 on every REFPAY admin route without an admin session, and with a wrong token", async () => {
      for (const route of ADMIN_ROUTES) {
        for (const headers of [{}, { headers: { authorization: "Bearer not-a-real-token" } }]) {
          const answer = route.method === "GET" ? await admin.get(route.path, headers) : await admin.post(route.path, {}, headers)
          expect({ route: route.path, status: answer.status }).toEqual({ route: route.path, status: 401 })
          expectNoCredential(answer.data)
        }
      }
    })

    it("shows the configuration as the server resolved it, each credential only as set or missing", async () => {
      const { status, data } = await admin.settings()
      expect(status).toBe(200)
      expect(data.registrations).toEqual([{ provider_id: "pp_refpay_refpay", account: null, environment: "sandbox" }])
      expect(data.settings).toEqual({
        provider_id: "pp_refpay_refpay",
        account: null,
        environment: "sandbox",
        token_interface: "t1",
        urls: { auth_url: sandbox().authUrl, backoffice_url: null, payments_url: sandbox().paymentsUrl, sandbox_hosts: [] },
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
        variables: expect.objectContaining({ clientSecret: "REFPAY_CLIENT_SECRET", expiryPolicy: "REFPAY_EXPIRY_POLICY" }),
      })
      const text = JSON.stringify(data)
      for (const value of [...Object.values(ADMIN_SUITE_CREDENTIALS), ADMIN_SUITE_WEBHOOK_SECRET]) expect(text).not.toContain(value)
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
      expect(data.connection.summary).toMatch(/issued a token.*accepted it.*404 PAYMENT_NOT_FOUND/)
      expect(data.connection.steps[1].url).toMatch(new RegExp(`^${sandbox().paymentsUrl}/dpm/hub-payment-info/v1/payments/info/[0-9a-f-]{36}$`))
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

      const other = await createAdminAndLogin(ctx.getContainer(), api as any, "second-admin@loja.test", "fake-second-password")
      const answer = await admin.testConnection(other)
      expect(answer.status).toBe(200)
      expect(answer.data.connection.ok).toBe(true)
    })

    it("refuses a connection test body with anything but the registration (400): it only ever uses the configured credentials", async () => {
      expect((await admin.post("/admin/refpay/connection-test", { client_secret: "x" })).status).toBe(400)
      expect((await admin.post("/admin/refpay/connection-test", { provider_id: "stripe" })).status).toBe(400)
      const unknown = await admin.post("/admin/refpay/connection-test", { provider_id: "pp_refpay_elsewhere" })
      expect(unknown.status).toBe(404)
      expect(unknown.data.message).toMatch(/not a REFPAY registration of this shop \(pp_refpay_refpay\)/)
      expect((await admin.get("/admin/refpay/settings?provider_id=pp_refpay_elsewhere")).status).toBe(404)
    })
  },
  adminSuiteOptions()
)

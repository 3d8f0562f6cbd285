import { request } from "undici"
import { portoAccount } from "../fixtures/porto-account"
import { ADMIN_SUITE_WEBHOOK_SECRET, adminSuiteOptions, expectNoCredential, refpayAdminApi } from "../fixtures/refpay-admin"
import { refpayOrders } from "../fixtures/refpay-orders"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(120 * 1000)

const PORTO_SECRET = "admin-accounts-porto-webhook-secret"
const PORTO = {
  clientId: "admin-accounts-porto-id",
  clientSecret: "admin-accounts-porto-secret",
  channel: "admin-accounts-porto-channel",
  scope: "payments admin-accounts-porto-scope",
}

/**
 * The admin's REFPAY page in a shop with two seller accounts (pp_refpay_lisboa on the harness's sandbox with the
 * unprefixed REFPAY_* variables, pp_refpay_porto on a second sandbox with REFPAY_PORTO_* ones): settings, connection
 * test, webhook URL and refused deliveries of each registration.
 */
const porto = portoAccount(PORTO, PORTO_SECRET)

refpayIntegrationSuite(
  "REFPAY admin page with two seller accounts",
  (ctx) => {
    const admin = refpayAdminApi(ctx)
    const { shopUrl } = refpayOrders(ctx)

    it("lists both registrations and shows each one's own settings, with the account's variable names", async () => {
      const first = (await admin.settings()).data
      expect(first.registrations).toEqual([
        { provider_id: "pp_refpay_lisboa", account: "lisboa", environment: "sandbox" },
        { provider_id: "pp_refpay_porto", account: "porto", environment: "sandbox" },
      ])
      expect(first.settings).toMatchObject({ provider_id: "pp_refpay_lisboa", urls: { payments_url: ctx.sandbox().paymentsUrl } })
      const second = (await admin.get("/admin/refpay/settings?provider_id=pp_refpay_porto")).data.settings
      expect(second).toMatchObject({
        provider_id: "pp_refpay_porto",
        account: "porto",
        urls: { auth_url: porto().authUrl, payments_url: porto().paymentsUrl },
        credentials: { client_id: "set", client_secret: "set", webhook_secret: "set" },
      })
      expect(second.variables).toMatchObject({ clientId: "REFPAY_PORTO_CLIENT_ID", paymentsUrl: "REFPAY_PORTO_PAYMENTS_URL" })
      expectNoCredential([first, second])
      expect(JSON.stringify(second)).not.toMatch(/admin-accounts-porto/)
    })

    it("tests each registration's connection against its own platform", async () => {
      const tested = (await admin.post("/admin/refpay/connection-test", { provider_id: "pp_refpay_porto" })).data.connection
      expect(tested).toMatchObject({ provider_id: "pp_refpay_porto", ok: true, steps: [{ url: `${porto().authUrl}/token` }, { http_status: 404 }] })
      const log = (await (await request(`${porto().url}/__sandbox/requests?path=/auth/token`)).body.json()) as { requests: unknown[] }
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
      // Lisboa's secret at Porto's door.
      const refused = await request(`${shopUrl()}/hooks/refpay/porto`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-refpay-webhook-secret": ADMIN_SUITE_WEBHOOK_SECRET },
        body: JSON.stringify({ event_id: "evt-crossed", event_type: "APPROVED_TRANSACTIONS", payment_id: "00000000-0000-4000-8000-000000000000" }),
      })
      await refused.body.text()
      expect(refused.statusCode).toBe(401)

      const porto2 = (await admin.get("/admin/refpay/webhooks?provider_id=pp_refpay_porto")).data.webhooks
      expect(porto2.refusals).toEqual([expect.objectContaining({ door: "refpay", reason: "wrong_secret", refused_count: 1 })])
      expect(porto2.warnings).toEqual([expect.objectContaining({ code: "refused_recently" })])
      const lisboa = (await admin.webhooks()).data.webhooks
      expect(lisboa).toMatchObject({ provider_id: "pp_refpay_lisboa", url: `${shopUrl()}/hooks/refpay/lisboa`, refusals: [], warnings: [] })
      expectNoCredential([porto2, lisboa])
    })
  },
  // Lisboa: the admin suites' distinctive credentials, unprefixed; Porto: its own REFPAY_PORTO_* ones.
  adminSuiteOptions({ REFPAY_TEST_ACCOUNTS: "lisboa,porto" })
)

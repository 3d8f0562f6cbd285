import { adminSuiteOptions, expectNoCredential, refpayAdminApi } from "../fixtures/refpay-admin"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(120 * 1000)

/** The admin's connection test with the sandbox's limited credential set: scope "reports", not "payments". */

refpayIntegrationSuite(
  "REFPAY admin connection test: the limited credential set (scope reports), through T2",
  (ctx) => {
    const admin = refpayAdminApi(ctx)

    it("says a token was issued but its scope does not cover payments (403 Forbidden)", async () => {
      const { status, data } = await admin.testConnection()
      expect(status).toBe(200)
      expect(data.connection).toMatchObject({
        ok: false,
        token_interface: "t2",
        problem: "scope_not_granted",
        steps: [
          { step: "token", result: "ok", url: `${ctx.sandbox().backofficeUrl}/v1/token` },
          { step: "payments", result: "failed", http_status: 403, code: "Forbidden" },
        ],
      })
      expect(data.connection.summary).toBe("A token was issued, but its scope does not cover payments: the payments API answered 403 Forbidden.")
      expect(data.connection.hint).toMatch(/grant the payments scope/)
      expect(data.connection.platform_detail).toMatch(/GENERIC-403/)
      expectNoCredential(data)
    })
  },
  adminSuiteOptions({
    REFPAY_TOKEN_INTERFACE: "t2",
    REFPAY_CLIENT_ID: "sandbox-limited-client-id",
    REFPAY_CLIENT_SECRET: "sandbox-limited-client-secret",
    REFPAY_CHANNEL: "sandbox-channel",
    REFPAY_SCOPE: "reports",
  })
)

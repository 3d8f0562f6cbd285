import { adminSuiteOptions, expectNoCredential, refpayAdminApi } from "../fixtures/refpay-admin"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(120 * 1000)

/**
 * The admin's connection test against a shop whose credentials the platform does not accept (each wrongly
 * configured shop is its own Medusa app, since the provider reads its settings at boot, as in a shop).
 */

refpayIntegrationSuite(
  "REFPAY admin connection test: credentials the platform refuses",
  (ctx) => {
    const admin = refpayAdminApi(ctx)

    it("says the token service refused the credentials (401 unauthorized_client), names the variables to check and never shows the secret", async () => {
      const { status, data } = await admin.testConnection()
      expect(status).toBe(200)
      expect(data.connection).toMatchObject({
        ok: false,
        problem: "credentials_refused",
        steps: [
          { step: "token", result: "failed", http_status: 401, code: "unauthorized_client" },
          { step: "payments", result: "skipped" },
        ],
      })
      expect(data.connection.summary).toBe("The token service refused the shop's credentials (401 unauthorized_client). No token was issued.")
      expect(data.connection.hint).toMatch(/REFPAY_CLIENT_ID and REFPAY_CLIENT_SECRET.*Production credentials do not work in the sandbox/)
      expectNoCredential(data)
      expect(JSON.stringify(data)).not.toContain("wrong-client-secret-for-admin-tests")
    })
  },
  adminSuiteOptions({ REFPAY_CLIENT_SECRET: "wrong-client-secret-for-admin-tests" })
)

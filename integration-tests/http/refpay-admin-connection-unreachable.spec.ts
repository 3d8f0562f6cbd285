import { adminSuiteOptions, expectNoCredential, refpayAdminApi } from "../fixtures/refpay-admin"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(120 * 1000)

/** The admin's connection test with a token service on a closed loopback port. */

refpayIntegrationSuite(
  "REFPAY admin connection test: a token service nobody listens on",
  (ctx) => {
    const admin = refpayAdminApi(ctx)

    it("says the host could not be reached (ECONNREFUSED: nothing is listening there) and how to fix it", async () => {
      const started = Date.now()
      const { status, data } = await admin.testConnection()
      expect(status).toBe(200)
      expect(data.connection).toMatchObject({
        ok: false,
        problem: "host_unreachable",
        platform_detail: null,
        steps: [
          { step: "token", result: "failed", url: "http://127.0.0.1:1/auth/token", http_status: null, code: "ECONNREFUSED" },
          { step: "payments", result: "skipped" },
        ],
      })
      expect(data.connection.summary).toBe("The token service at http://127.0.0.1:1 could not be reached (ECONNREFUSED: nothing is listening there).")
      expect(data.connection.hint).toMatch(/start it \(npx refpay-sandbox\)/)
      // One attempt, no retries with backoff: the answer is quick.
      expect(Date.now() - started).toBeLessThan(5_000)
      expectNoCredential(data)
    })
  },
  // Port 1 on loopback: closed on any machine that runs these tests.
  adminSuiteOptions({ REFPAY_AUTH_URL: "http://127.0.0.1:1/auth" })
)

import { medusaIntegrationTestRunner } from "@medusajs/test-utils"

jest.setTimeout(120 * 1000)

// Proves the test tooling itself: a real Medusa 2.21.2 app on the real PostgreSQL that `npm test` started.
medusaIntegrationTestRunner({
  inApp: true,
  // The provider needs credentials to boot; it does not call the platform until a payment is made.
  env: { REFPAY_CLIENT_ID: "fake-client-id", REFPAY_CLIENT_SECRET: "fake-client-secret" },
  testSuite: ({ api, dbConnection }) => {
    it("boots a Medusa app on the test PostgreSQL and answers over HTTP", async () => {
      const response = await api.get("/health")
      expect(response.status).toBe(200)
    })

    it("runs queries against a real PostgreSQL database", async () => {
      const { rows } = await dbConnection.raw("select current_setting('server_version_num') as v")
      expect(Number(rows[0].v)).toBeGreaterThanOrEqual(150000)
    })
  },
})

// The Medusa app the integration tests boot (`@medusajs/test-utils` loads it from the repository root, and loads
// `src/` as the app's own extensions, so the plugin's routes, subscribers, jobs and hooks run from source).
// Shops do not use this file: they install the built package (see README).
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

function refpayRegistrations() {
  const accounts = process.env.REFPAY_TEST_ACCOUNTS?.split(",").filter(Boolean) ?? []
  if (accounts.length === 0) return [{ resolve: "./src/providers/refpay", id: "refpay", options: {} }]
  return accounts.map((account) => ({ resolve: "./src/providers/refpay", id: account, options: { account } }))
}

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS || "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS || "http://localhost:9000",
      authCors: process.env.AUTH_CORS || "http://localhost:9000",
      jwtSecret: process.env.JWT_SECRET || "supersecret",
      cookieSecret: process.env.COOKIE_SECRET || "supersecret",
    },
  },
  modules: [
    // The plugin's own module (webhook event records). A shop gets it through `plugins`.
    { resolve: "./src/modules/refpay" },
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        // Every option comes from its REFPAY_* environment variable (see README), as in a shop. With
        // REFPAY_TEST_ACCOUNTS=lisboa,porto: one registration per seller account (pp_refpay_lisboa, ...), each
        // reading its own REFPAY_<ACCOUNT>_* variables first.
        providers: refpayRegistrations(),
      },
    },
    // Integration tests of the payment instructions e-mail: Medusa's local provider (it logs) serves "email".
    ...(process.env.REFPAY_TEST_NOTIFICATIONS === "local"
      ? [
          {
            resolve: "@medusajs/medusa/notification",
            options: {
              providers: [
                {
                  resolve: "@medusajs/medusa/notification-local",
                  id: "local",
                  options: { name: "Local e-mail (tests)", channels: ["email"] },
                },
              ],
            },
          },
        ]
      : []),
  ],
})

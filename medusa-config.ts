// The Medusa app the integration tests boot (`@medusajs/test-utils` loads it from the repository root, and loads
// `src/` as the app's own extensions, so the plugin's routes, subscribers, jobs and hooks run from source), on the
// base the demo shop shares (demo/shop-config.ts). Shops do not use this file: they install the built package (see
// README).
import { shopConfig } from "./demo/shop-config"

module.exports = shopConfig({
  refpayProvider: "./src/providers/refpay",
  // With REFPAY_TEST_ACCOUNTS=lisboa,porto: one registration per seller account (pp_refpay_lisboa, ...), each
  // reading its own REFPAY_<ACCOUNT>_* variables first.
  refpayAccounts: process.env.REFPAY_TEST_ACCOUNTS?.split(",").filter(Boolean),
  modules: [
    // The plugin's own module (webhook event records). A shop gets it through `plugins`.
    { resolve: "./src/modules/refpay" },
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

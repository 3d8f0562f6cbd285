// The demo shop's configuration: the plugin installed from its packed tarball, exactly as a shop owner installs it
// (see README, "Install in a Medusa 2.21 shop"). `npm run demo` (scripts/demo.js) sets every variable below; the
// REFPAY_* settings point at the local REFPAY sandbox.
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS || "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS || "http://localhost:9000",
      authCors: process.env.AUTH_CORS || "http://localhost:9000",
      jwtSecret: process.env.JWT_SECRET || "demo-jwt-secret-not-secret",
      cookieSecret: process.env.COOKIE_SECRET || "demo-cookie-secret-not-secret",
    },
    // The demo runs `medusa start` (production mode) over plain http on localhost, where a Secure session cookie
    // would never be set and the admin could not log in. A real shop serves HTTPS and leaves this out.
    cookieOptions: { secure: false, sameSite: "lax" },
  },
  plugins: [{ resolve: "medusa-payment-refpay", options: {} }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            resolve: "medusa-payment-refpay/providers/refpay",
            id: "refpay",
            // Every setting comes from its REFPAY_* environment variable (REFPAY_ENVIRONMENT, REFPAY_AUTH_URL,
            // REFPAY_PAYMENTS_URL, REFPAY_CLIENT_ID, REFPAY_CLIENT_SECRET, REFPAY_WEBHOOK_SECRET, ...).
            options: {},
          },
        ],
      },
    },
  ],
})

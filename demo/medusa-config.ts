// The demo shop's configuration: the plugin installed from its packed tarball, exactly as a shop owner installs it
// (see README, "Install in a Medusa 2.21 shop"). `npm run demo` (scripts/demo.js) sets every variable below; the
// REFPAY_* settings point at the local REFPAY sandbox.
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

// Several servers (`npm run demo -- --servers 2`, `npm test -- --cluster`): with REDIS_URL set, Medusa's Redis event
// bus, workflow engine, locking provider, cache and session store, and the process's role from MEDUSA_WORKER_MODE
// (`shared`, `server` or `worker`). Without it the demo is one server with Medusa's in-memory defaults.
const redisUrl = process.env.REDIS_URL
const redisModules = redisUrl
  ? [
      { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl } },
      { resolve: "@medusajs/medusa/workflow-engine-redis", options: { redis: { redisUrl } } },
      {
        resolve: "@medusajs/medusa/locking",
        options: {
          providers: [{ resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl } }],
        },
      },
      { resolve: "@medusajs/medusa/cache-redis", options: { redisUrl } },
    ]
  : []

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
    ...(redisUrl
      ? { redisUrl, workerMode: (process.env.MEDUSA_WORKER_MODE || "shared") as "shared" | "worker" | "server" }
      : {}),
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
    // The demo's e-mail: a small notification provider (demo/src/modules/mailbox) that renders the plugin's
    // templates with `renderRefpayEmail` and keeps them for the storefront's Mailbox page. A shop registers its real
    // e-mail provider here instead (README, "E-mails to the customer").
    {
      resolve: "@medusajs/medusa/notification",
      options: {
        providers: [{ resolve: "./src/modules/mailbox", id: "mailbox", options: { channels: ["email"] } }],
      },
    },
    ...redisModules,
  ],
})

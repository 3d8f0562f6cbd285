// The demo shop's configuration: the plugin installed from its packed tarball, exactly as a shop owner installs it
// (see README, "Install in a Medusa 2.21 shop"), on the base the integration tests' app shares (./shop-config.ts).
// `npm run demo` (scripts/demo.js) sets every variable read here and there; the REFPAY_* settings point at the local
// REFPAY sandbox.
import { shopConfig } from "./shop-config"

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
          providers: [
            { resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl } },
          ],
        },
      },
      { resolve: "@medusajs/medusa/cache-redis", options: { redisUrl } },
    ]
  : []

module.exports = shopConfig({
  plugins: [{ resolve: "medusa-payment-refpay", options: {} }],
  refpayProvider: "medusa-payment-refpay/providers/refpay",
  projectConfig: redisUrl
    ? { redisUrl, workerMode: (process.env.MEDUSA_WORKER_MODE || "shared") as "shared" | "worker" | "server" }
    : {},
  modules: [
    // The demo's e-mail: a small notification provider (demo/src/modules/mailbox) that renders the plugin's
    // templates with `renderRefpayEmail` and keeps them for the storefront's Mailbox page. A shop registers its real
    // e-mail provider here instead (docs/payment-lifecycle.md, e-mails).
    {
      resolve: "@medusajs/medusa/notification",
      options: {
        providers: [{ resolve: "./src/modules/mailbox", id: "mailbox", options: { channels: ["email"] } }],
      },
    },
    ...redisModules,
  ],
})

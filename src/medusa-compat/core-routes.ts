import { existsSync } from "node:fs"
import path from "node:path"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/**
 * Reliance on Medusa: the core routes the plugin's middlewares stand in front of (src/api/middlewares.ts,
 * src/api/medusa-routes), with the path parameter each reads. Medusa runs a plugin's middlewares for a matching path
 * after its own middlewares of that route (body and query validation, so the refund's body is read from
 * `req.validatedBody`; RBAC policies: refpay-admin-policies.spec.ts checks a role without the policy is refused the
 * refund and the cancellation the plugin carries out) and before its route handler; a core route that moves or
 * renames its parameter would leave a REFPAY order unguarded.
 */
export const CORE_ROUTES = {
  /** Medusa's webhook route: the secret is checked and replaced by a proof before Medusa copies the headers. */
  webhook: { matcher: "/hooks/payment/:provider", method: "POST", file: "hooks/payment/[provider]" },
  /** A refund of a payment: run under the session's lock, and without the credit line on a cancelled order. */
  refund: { matcher: "/admin/payments/:id/refund", method: "POST", file: "admin/payments/[id]/refund" },
  /** An order's cancellation: run under its REFPAY sessions' locks. */
  cancelOrder: { matcher: "/admin/orders/:id/cancel", method: "POST", file: "admin/orders/[id]/cancel" },
  /** A fulfilment: refused while a REFPAY order is unpaid. */
  fulfil: { matcher: "/admin/orders/:id/fulfillments", method: "POST", file: "admin/orders/[id]/fulfillments" },
  /** A store request for payment sessions: refused on a placed order's REFPAY collection. */
  storeSessions: {
    matcher: "/store/payment-collections/:id/payment-sessions",
    method: "POST",
    file: "store/payment-collections/[id]/payment-sessions",
  },
} as const satisfies Record<string, { matcher: string; method: "POST"; file: string }>

/** The folder of @medusajs/medusa's compiled routes (`dist/api`), found from its package.json. */
function medusaApiFolder(): string {
  return path.join(path.dirname(require.resolve("@medusajs/medusa/package.json")), "dist", "api")
}

export const coreRoutesReliance: MedusaReliance = {
  name: "core-routes",
  behaviour:
    "Medusa still serves the core routes the plugin's middlewares guard (webhook, refund, order cancel, fulfilment, " +
    "store payment sessions) at the same paths, with the same parameter names.",
  upstream: "packages/medusa/src/api (file-based routes)",
  verified: VERIFIED_ON,
  usedBy: ["src/api/middlewares.ts", "src/api/medusa-routes/locked-money-routes.ts"],
  async check() {
    const api = medusaApiFolder()
    const missing = Object.values(CORE_ROUTES).filter((route) => !existsSync(path.join(api, route.file, "route.js")))
    if (missing.length) throw new Error(`Medusa no longer serves ${missing.map((route) => route.matcher).join(", ")}`)
  },
}

import Medusa from "@medusajs/js-sdk"

// Defined by the admin's build (Medusa's admin.backendUrl), as for the dashboard itself.
declare const __BACKEND_URL__: string | undefined

/**
 * The plugin's one client of the admin API, as Medusa documents for admin customisations: the logged-in user's
 * session cookie authenticates every call, and a non-2xx answer is thrown as a FetchError.
 */
export const sdk = new Medusa({
  // Undefined outside the admin's build (the package's admin entry loaded by Node, as the packed-package test does).
  baseUrl: (typeof __BACKEND_URL__ !== "undefined" && __BACKEND_URL__) || "/",
  debug: false,
  auth: { type: "session" },
})

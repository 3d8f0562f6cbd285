import type { MedusaContainer } from "@medusajs/framework/types"

/**
 * One reliance of the plugin on Medusa behaviour that is not a public contract. Each lives in its own file of this
 * folder, beside the code that relies on it, and contracts.ts checks them all against the Medusa the plugin runs on:
 * the integration suites on 2.21.2, the compatibility tier inside a real app of every supported version, a shop with
 * `npx medusa exec …/medusa-compat/check-contracts.js`. A failure names the reliance, so an upstream change is seen
 * before money goes wrong.
 */
export interface MedusaReliance {
  name: string
  /** What the plugin relies on Medusa to do. */
  behaviour: string
  /** The upstream code or issue it comes from. */
  upstream: string
  /** The Medusa versions it was verified on (the compatibility tier's rows). */
  verified: string
  /** The plugin's files that would break. */
  usedBy: string[]
  /** Throws (with what was seen) when the Medusa this runs on does not behave so. */
  check: (container: MedusaContainer) => Promise<void>
}

/** The versions every reliance was verified on by the compatibility tier (docs/testing.md). */
export const VERIFIED_ON = "2.18.0, 2.19.0, 2.20.1, 2.21.1 and 2.21.2"

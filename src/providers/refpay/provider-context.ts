import type { Logger } from "@medusajs/framework/types"
import type { RefpayClient } from "../../lib/refpay"
import type { ResolvedRefpayOptions } from "../../config"
import { toMedusaError } from "../../rules/platform-errors"

/** What the provider's operations work with: its account's platform client, Medusa's logger, its settings. */
export interface ProviderContext {
  client: RefpayClient
  logger: Logger
  settings: Readonly<ResolvedRefpayOptions>
}

/**
 * The error Medusa is handed. The provider's methods run for anonymous shoppers (cart completion, payment sessions),
 * so the caller gets a shopper's message; whatever it replaces (the platform's detail, redacted by the client) is
 * logged.
 */
export function shopperError(context: ProviderContext, error: unknown, action: string): Error {
  const shown = toMedusaError(error, action, "shopper")
  if (shown !== error)
    context.logger.error(`REFPAY: could not ${action}: ${error instanceof Error ? error.message : String(error)}`)
  return shown
}

import type { RefpayProviderService } from "./service"

/**
 * The REFPAY provider instance Medusa constructed. Medusa keeps payment providers inside the payment module's own
 * container, out of reach of routes, subscribers and jobs; they reach the provider (and its platform client with
 * its token cache) here. Only a pointer to Medusa's singleton lives in this process: payment state stays in the
 * database and on the platform, so several servers behave alike.
 */
let current: RefpayProviderService | undefined

export function registerRefpayProvider(provider: RefpayProviderService): void {
  current = provider
}

export function isRefpayProviderRegistered(): boolean {
  return current !== undefined
}

export function getRefpayProvider(): RefpayProviderService {
  if (!current) {
    throw new Error(
      'REFPAY provider is not configured: add { resolve: "medusa-payment-refpay/providers/refpay", id: "refpay" } ' +
        "to the payment module's providers in medusa-config"
    )
  }
  return current
}

/** Payment provider ids of REFPAY sessions: `pp_refpay_<id>` whatever id the shop registered it under. */
export function isRefpayProviderId(providerId: string | null | undefined): boolean {
  return typeof providerId === "string" && providerId.startsWith("pp_refpay_")
}

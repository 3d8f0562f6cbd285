import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { isRefpayProviderId } from "../../rules/provider-ids"
import { registeredProvider, RefpayRegistryError } from "../../medusa-compat/provider-registry"
import type { RefpayProviderService } from "./service"

/**
 * The REFPAY provider Medusa registered under `providerId` (e.g. `pp_refpay_porto`), with its own options, client,
 * token cache and webhook secret. A shop may register REFPAY more than once (one per seller account): a session is
 * always handled by the account that created it. Found through the payment module's public API (registry.ts),
 * memoised per app.
 */
export async function refpayProviderFor(
  container: MedusaContainer,
  providerId: string
): Promise<RefpayProviderService> {
  if (!isRefpayProviderId(providerId)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${providerId} is not a REFPAY payment provider`)
  }
  try {
    return await registeredProvider<RefpayProviderService>(
      container.resolve<IPaymentModuleService>(Modules.PAYMENT),
      providerId
    )
  } catch (error) {
    if (!(error instanceof RefpayRegistryError)) throw error
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `REFPAY provider ${providerId} is not reachable: ${error.message}. A provider is registered as { resolve: "medusa-payment-refpay/providers/refpay", id: "${providerId.replace(/^pp_refpay_/, "")}" } among the payment module's providers in medusa-config`
    )
  }
}

/** Every REFPAY account of this shop (`pp_refpay_<id>`), sorted. */
export async function refpayProviderIds(container: MedusaContainer): Promise<string[]> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const providers = await payments.listPaymentProviders({}, { select: ["id"] })
  return providers
    .map((p) => p.id)
    .filter(isRefpayProviderId)
    .sort()
}

/**
 * The shop's REFPAY account when there is one (the usual case), or the first of several (by id) for a page
 * that shows one; code that handles a payment uses `refpayProviderFor` with the payment's own provider id.
 */
export async function refpayProvider(container: MedusaContainer): Promise<RefpayProviderService> {
  const [first] = await refpayProviderIds(container)
  if (!first) {
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      'REFPAY provider is not configured: add { resolve: "medusa-payment-refpay/providers/refpay", id: "refpay" } to the payment module\'s providers in medusa-config'
    )
  }
  return refpayProviderFor(container, first)
}

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

/** The REFPAY accounts each payment module instance (one per Medusa app) was found to have. */
const accountsByApp = new WeakMap<object, Promise<string[]>>()

/**
 * Every REFPAY account of this shop (`pp_refpay_<id>`), sorted. Read once per app: the payment module registers
 * its providers from medusa-config when it loads, and nothing adds or removes one while the app runs (every webhook
 * delivery asks, so it is not a statement each). A failed read is not kept.
 */
export async function refpayProviderIds(container: MedusaContainer): Promise<string[]> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  let ids = accountsByApp.get(payments)
  if (!ids) {
    ids = payments.listPaymentProviders({}, { select: ["id"] }).then((providers) =>
      providers
        .map((p) => p.id)
        .filter(isRefpayProviderId)
        .sort()
    )
    accountsByApp.set(payments, ids)
    ids.catch(() => accountsByApp.delete(payments))
  }
  return [...(await ids)]
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

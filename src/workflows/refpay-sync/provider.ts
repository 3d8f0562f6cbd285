import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { isRefpayProviderId } from "../../rules/provider-ids"
import type { RefpayProviderService } from "../../providers/refpay/service"

/** The payment module's own provider lookup (`pp_<identifier>_<id>` in its container), which every payment call uses. */
interface ProviderLookup {
  paymentProviderService_?: { retrieveProvider(providerId: string): unknown }
}

/**
 * The REFPAY provider Medusa registered under `providerId` (e.g. `pp_refpay_porto`), with its own options, client,
 * token cache and webhook secret. A shop may register REFPAY more than once (one per seller account): a session is
 * always handled by the registration that created it, looked up the way the payment module itself looks up a
 * provider for a payment call (Medusa builds it on first use; no other call is needed first).
 */
export function refpayProviderFor(container: MedusaContainer, providerId: string): RefpayProviderService {
  if (!isRefpayProviderId(providerId)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${providerId} is not a REFPAY payment provider`)
  }
  const lookup = (container.resolve(Modules.PAYMENT) as unknown as ProviderLookup).paymentProviderService_
  const provider = lookup?.retrieveProvider(providerId) as RefpayProviderService | undefined
  if (!provider || typeof provider !== "object" || !("client" in provider) || !("settings" in provider)) {
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `REFPAY provider ${providerId} is not configured: add { resolve: "medusa-payment-refpay/providers/refpay", id: "${providerId.replace(/^pp_refpay_/, "")}" } to the payment module's providers in medusa-config`
    )
  }
  return provider
}

/** Every REFPAY registration of this shop (`pp_refpay_<id>`), sorted. */
export async function refpayProviderIds(container: MedusaContainer): Promise<string[]> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const providers = await payments.listPaymentProviders({}, { select: ["id"] })
  return providers.map((p) => p.id).filter(isRefpayProviderId).sort()
}

/**
 * The shop's REFPAY registration when there is one (the usual case), or the first of several (by id) for a page
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

import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { getRefpayProvider, isRefpayProviderId, isRefpayProviderRegistered } from "../../providers/refpay/registry"
import type { RefpayProviderService } from "../../providers/refpay/service"

/**
 * The REFPAY provider instance, constructing it if need be. Medusa builds payment providers lazily, on the first
 * payment call, so a job or route running first (a fresh server) would find none; listing the provider's
 * payment methods (a side-effect-free call) makes the payment module construct it.
 */
export async function refpayProvider(container: MedusaContainer): Promise<RefpayProviderService> {
  if (!isRefpayProviderRegistered()) {
    const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
    const providers = await payments.listPaymentProviders({}, { select: ["id"] })
    const id = providers.map((p) => p.id).find(isRefpayProviderId)
    if (id) await payments.listPaymentMethods({ provider_id: id, context: {} })
  }
  return getRefpayProvider()
}

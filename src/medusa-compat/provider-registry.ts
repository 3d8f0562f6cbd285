import type { IPaymentModuleService, ProviderWebhookPayload } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/**
 * Reliance on Medusa (checked on every supported version: contracts.ts, "provider-registry"): how the plugin reaches
 * each REFPAY account's provider (its options, client and token cache), keyed by provider id
 * (`pp_refpay_<id>`), without reading any private field of Medusa's payment module.
 * Upstream: packages/modules/payment/src/services/payment-module.ts, getWebhookActionAndData. Verified on the versions
 * of VERIFIED_ON (the compatibility tier, docs/testing.md).
 *
 * Medusa 2.18 to 2.21 give a provider only the cradle and its options, never its own id, and the payment module
 * exposes no provider lookup. Its public `getWebhookActionAndData({ provider, payload })` does route a call to the provider
 * of a given id, so the plugin sends each provider id one lookup request through it: the payload carries a symbol
 * that only in-process code can set (an HTTP body cannot), and the provider answers by handing itself over. The
 * answer is memoised per payment module instance (one per Medusa app).
 */
const PROVIDER_LOOKUP = Symbol.for("medusa-payment-refpay.provider-lookup")

type HandOver<P> = (provider: P) => void
type LookupPayload<P> = ProviderWebhookPayload["payload"] & { [PROVIDER_LOOKUP]?: HandOver<P> }

/** The slice of the payment module this needs: its public webhook dispatch. */
export interface WebhookDispatch {
  getWebhookActionAndData(input: ProviderWebhookPayload): Promise<unknown>
}

const found = new WeakMap<object, Map<string, unknown>>()

/** Called by the provider first thing in `getWebhookActionAndData`: true when the call was the plugin's lookup. */
export function answerProviderLookup<P>(payload: ProviderWebhookPayload["payload"], provider: P): boolean {
  const handOver = (payload as LookupPayload<P>)[PROVIDER_LOOKUP]
  if (typeof handOver !== "function") return false
  handOver(provider)
  return true
}

export class RefpayRegistryError extends Error {}

/**
 * The provider registered as `providerId`, looked up once per payment module. Throws RefpayRegistryError when the
 * payment module has no such provider, or when it has one that never answered (Medusa stopped handing the payload
 * over unchanged, or the provider under that id is not REFPAY's): the message names which.
 */
export async function registeredProvider<P>(payments: WebhookDispatch, providerId: string): Promise<P> {
  let known = found.get(payments)
  if (!known) found.set(payments, (known = new Map()))
  if (known.has(providerId)) return known.get(providerId) as P

  let answered: P | undefined
  const payload: LookupPayload<P> = {
    data: {},
    rawData: "",
    headers: {},
    [PROVIDER_LOOKUP]: (provider) => (answered = provider),
  }
  try {
    // The id without its `pp_`: Medusa 2.18.0 to 2.21.1 prefix `pp_` to whatever they are given, 2.21.2 only when
    // it is missing (packages/modules/payment/src/services/payment-module.ts), so this form reaches it on both.
    await payments.getWebhookActionAndData({ provider: providerId.replace(/^pp_/, ""), payload })
  } catch (error) {
    throw new RefpayRegistryError(`the payment module has no provider ${providerId} (${(error as Error).message})`)
  }
  if (answered === undefined) {
    throw new RefpayRegistryError(
      `the payment module's getWebhookActionAndData did not reach REFPAY's provider ${providerId} with the payload it was given: ` +
        "this Medusa version changed how it dispatches to providers, and the plugin cannot find its accounts"
    )
  }
  known.set(providerId, answered)
  return answered
}

export const providerRegistryReliance: MedusaReliance = {
  name: "provider-registry",
  behaviour:
    "The payment module's getWebhookActionAndData({ provider, payload }) reaches the provider of that id (with or " +
    "without its pp_ prefix) and hands it the payload object unchanged: the plugin finds each account so.",
  upstream: "packages/modules/payment/src/services/payment-module.ts getWebhookActionAndData (pp_ fix in 2.21.2)",
  verified: VERIFIED_ON,
  usedBy: ["src/medusa-compat/provider-registry.ts", "src/providers/refpay/refpay-providers.ts"],
  async check(container) {
    const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
    const ids = (await payments.listPaymentProviders({}, { select: ["id"] }))
      .map((p) => p.id)
      .filter((id) => id.startsWith("pp_refpay_"))
    if (ids.length === 0) throw new Error("no pp_refpay_* provider is registered in this app")
    for (const id of ids) {
      const provider = await registeredProvider<{ client?: unknown }>(payments, id)
      if (!provider?.client) throw new Error(`${id} answered with something that is not REFPAY's provider`)
    }
  },
}

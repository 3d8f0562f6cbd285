import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { RefpayProviderService } from "../providers/refpay/service"
import { refpayProviderFor, refpayProviderIds } from "../providers/refpay/refpay-providers"

/**
 * Which REFPAY account a page request is about. A shop usually has one (`pp_refpay_refpay`); one with several
 * seller accounts (`pp_refpay_lisboa`, `pp_refpay_porto`) picks one with `provider_id`, the first by id otherwise.
 */
export interface SelectedAccount {
  providerId: string
  provider: RefpayProviderService
  /** Every REFPAY account of the shop, sorted. */
  accounts: string[]
}

export async function selectAccount(container: MedusaContainer, wanted?: string): Promise<SelectedAccount> {
  const accounts = await refpayProviderIds(container)
  if (accounts.length === 0) {
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      "REFPAY is not configured: no pp_refpay_* payment provider is registered"
    )
  }
  if (wanted && !accounts.includes(wanted)) {
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `${wanted.slice(0, 60)} is not a REFPAY account of this shop (${accounts.join(", ")})`
    )
  }
  const providerId = wanted ?? accounts[0]!
  return { providerId, provider: await refpayProviderFor(container, providerId), accounts }
}

/** The account's own id: `lisboa` for `pp_refpay_lisboa`. */
export function providerIdSuffix(providerId: string): string {
  return providerId.replace(/^pp_refpay_/, "")
}

/**
 * The account a webhook route serves: the one its path names (`/hooks/refpay/:id`, Medusa's
 * `/hooks/payment/refpay_<id>`), else the shop's only one; undefined when there are several and none is named.
 */
export async function webhookRouteProviderId(container: MedusaContainer, named?: string): Promise<string | undefined> {
  if (named) return named
  const accounts = await refpayProviderIds(container)
  return accounts.length === 1 ? accounts[0] : undefined
}

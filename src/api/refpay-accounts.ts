import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { RefpayProviderService } from "../providers/refpay/service"
import { refpayProviderFor, refpayProviderIds } from "../providers/refpay/refpay-providers"

/**
 * Which REFPAY registration a page request is about. A shop usually has one (`pp_refpay_refpay`); one with several
 * seller accounts (`pp_refpay_lisboa`, `pp_refpay_porto`) picks one with `provider_id`, the first by id otherwise.
 */
export interface SelectedRegistration {
  providerId: string
  provider: RefpayProviderService
  /** Every REFPAY registration of the shop, sorted. */
  registrations: string[]
}

export async function selectRegistration(container: MedusaContainer, wanted?: string): Promise<SelectedRegistration> {
  const registrations = await refpayProviderIds(container)
  if (registrations.length === 0) {
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      "REFPAY is not configured: no pp_refpay_* payment provider is registered"
    )
  }
  if (wanted && !registrations.includes(wanted)) {
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `${wanted.slice(0, 60)} is not a REFPAY registration of this shop (${registrations.join(", ")})`
    )
  }
  const providerId = wanted ?? registrations[0]!
  return { providerId, provider: await refpayProviderFor(container, providerId), registrations }
}

/** The registration's own id: `lisboa` for `pp_refpay_lisboa`. */
export function registrationId(providerId: string): string {
  return providerId.replace(/^pp_refpay_/, "")
}

/**
 * The registration a webhook route serves: the one its path names (`/hooks/refpay/:id`, Medusa's
 * `/hooks/payment/refpay_<id>`), else the shop's only one; undefined when there are several and none is named.
 */
export async function webhookRouteRegistration(
  container: MedusaContainer,
  named?: string
): Promise<string | undefined> {
  if (named) return named
  const registrations = await refpayProviderIds(container)
  return registrations.length === 1 ? registrations[0] : undefined
}

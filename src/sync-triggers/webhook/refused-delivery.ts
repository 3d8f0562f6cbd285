import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../modules/refpay"
import { WEBHOOK_SECRET_HEADER, type WebhookRefusalReason, type WebhookRoute } from "../../rules/webhook"
import { refpayProviderFor } from "../../providers/refpay/refpay-providers"

/**
 * Why a webhook delivery was refused, from what it presented (never what): no secret at all, a secret that is not
 * the shop's, or a shop with no secret configured. Only called once the delivery has been refused.
 */
export function refusalReason(headers: Record<string, unknown>, secret: string | undefined): WebhookRefusalReason {
  if (!secret) return "no_secret_configured"
  const named = (name: string) =>
    Object.entries(headers).some(([key, value]) => key.toLowerCase() === name && value !== undefined && value !== "")
  const basic = Object.entries(headers).some(
    ([key, value]) => key.toLowerCase() === "authorization" && typeof value === "string" && /^Basic\s+\S/i.test(value)
  )
  return named(WEBHOOK_SECRET_HEADER) || basic ? "wrong_secret" : "missing_secret"
}

/**
 * Counts a refused delivery for the admin page, under the account it was for (`pp_refpay_<id>`, when the webhook
 * route tells). A failure to count is logged; it never changes the answer.
 */
export async function recordRefusedDelivery(
  container: MedusaContainer,
  route: WebhookRoute,
  headers: Record<string, unknown>,
  providerId: string | undefined
): Promise<void> {
  try {
    const secret = providerId ? (await refpayProviderFor(container, providerId)).settings.webhookSecret : undefined
    const reason = providerId ? refusalReason(headers, secret) : refusalReason(headers, "unknown account")
    await container
      .resolve<RefpayModuleService>(REFPAY_MODULE)
      .recordWebhookRefusal({ route, reason, provider_id: providerId ?? "" })
  } catch (error) {
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .warn(`REFPAY: a refused webhook delivery could not be counted: ${(error as Error).message}`)
  }
}

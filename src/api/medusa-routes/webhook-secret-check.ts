import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { asError } from "../../medusa-compat/runas-step-errors"
import { isRefpayProviderId, providerIdFromRoute } from "../../rules/provider-ids"
import {
  medusaRouteProof,
  MEDUSA_ROUTE_PROOF_HEADER,
  SECRET_BEARING_HEADERS,
  webhookSecretMatches,
} from "../../rules/webhook"
import { recordRefusedDelivery } from "../../sync-triggers/webhook/refused-delivery"
import { refpayProviderFor } from "../../providers/refpay/refpay-providers"

/**
 * Medusa's webhook route (`POST /hooks/payment/refpay_<id>`): Medusa copies every header into its
 * `payment.webhook_received` event. The secret is checked here and replaced by a proof (an HMAC of the body), so it
 * never travels with the event. Medusa answers 200 whatever happens; a refused delivery is counted for the admin's
 * REFPAY page.
 */
export async function medusaRouteSecretCheck(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const providerId = providerIdFromRoute(String(req.params.provider ?? ""))
    if (!isRefpayProviderId(providerId)) return next()
    // An account the shop does not have: a generic 404, as the plugin's route answers (src/api/hooks/refpay); the
    // lookup's message (module path, medusa-config advice) is for the log, never for an anonymous caller.
    const provider = await refpayProviderFor(req.scope, providerId).catch((error: unknown) => {
      if (!(error instanceof MedusaError) || error.type !== MedusaError.Types.NOT_FOUND) throw error
      req.scope
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`REFPAY: a webhook delivery to ${req.originalUrl} was answered 404: ${error.message}`)
    })
    if (!provider) return void res.status(404).json({ type: "not_found", message: "Not found" })
    // The secret of the account the URL names (pp_refpay_<id>): one account's secret never opens another's route.
    const secret = provider.settings.webhookSecret
    const matches = webhookSecretMatches(req.headers as Record<string, unknown>, secret)
    if (!matches) await recordRefusedDelivery(req.scope, "medusa", req.headers as Record<string, unknown>, providerId)
    for (const name of [...SECRET_BEARING_HEADERS, MEDUSA_ROUTE_PROOF_HEADER]) delete req.headers[name]
    if (matches && secret) {
      req.headers[MEDUSA_ROUTE_PROOF_HEADER] = medusaRouteProof(secret, Buffer.from(JSON.stringify(req.body ?? null)))
    }
    next()
  } catch (error) {
    next(asError(error))
  }
}

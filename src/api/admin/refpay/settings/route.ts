import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { refpayProviderFor } from "../../../../providers/refpay/refpay-providers"
import { selectRegistration } from "../../../refpay-accounts"
import { buildSettingsView } from "./settings-view"
import type { AdminRefpayRegistrationQueryType } from "../validators"

/**
 * `GET /admin/refpay/settings?provider_id=`: the REFPAY settings as this server resolved them (medusa-config,
 * REFPAY_* variables, defaults), of one registration (the first when not named), and the shop's registrations.
 * Credentials are reported as "set" or "missing", never with a value, a prefix or a length.
 */
export async function GET(
  req: AuthenticatedMedusaRequest<unknown, AdminRefpayRegistrationQueryType>,
  res: MedusaResponse
): Promise<void> {
  const query = req.validatedQuery as AdminRefpayRegistrationQueryType
  const { providerId, provider, registrations } = await selectRegistration(req.scope, query.provider_id)
  res.status(200).json({
    settings: buildSettingsView(provider.settings, providerId),
    registrations: await Promise.all(
      registrations.map(async (id) => {
        const settings = (await refpayProviderFor(req.scope, id)).settings
        return { provider_id: id, account: settings.account ?? null, environment: settings.environment }
      })
    ),
  })
}

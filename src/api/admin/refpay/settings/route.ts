import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { refpayProviderFor } from "../../../../providers/refpay/refpay-providers"
import { selectAccount } from "../../../refpay-accounts"
import { buildSettingsView } from "./settings-view"
import type { AdminRefpayAccountQueryType } from "../validators"

/**
 * `GET /admin/refpay/settings?provider_id=`: the REFPAY settings as this server resolved them (medusa-config,
 * REFPAY_* variables, defaults), of one account (the first when not named), and the shop's accounts.
 * Credentials are reported as "set" or "missing", never with a value, a prefix or a length.
 */
export async function GET(
  req: AuthenticatedMedusaRequest<unknown, AdminRefpayAccountQueryType>,
  res: MedusaResponse
): Promise<void> {
  const query = req.validatedQuery as AdminRefpayAccountQueryType
  const { providerId, provider, accounts } = await selectAccount(req.scope, query.provider_id)
  res.status(200).json({
    settings: buildSettingsView(provider.settings, providerId),
    accounts: await Promise.all(
      accounts.map(async (id) => {
        const settings = (await refpayProviderFor(req.scope, id)).settings
        return { provider_id: id, account: settings.account ?? null, environment: settings.environment }
      })
    ),
  })
}

import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { buildSettingsView } from "../../../../refpay-admin/settings-view"
import { refpayProvider } from "../../../../workflows/refpay-sync/provider"

/**
 * `GET /admin/refpay/settings`: the REFPAY settings as this server resolved them (medusa-config, REFPAY_* variables,
 * defaults). Credentials are reported as "set" or "missing", never with a value, a prefix or a length.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const provider = await refpayProvider(req.scope)
  res.status(200).json({ settings: buildSettingsView(provider.settings) })
}

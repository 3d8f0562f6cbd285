import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { countAttention } from "../../../../refpay-admin/attention"
import { configuredSecrets } from "../../../../refpay-admin/secrets"
import { refpayProvider } from "../../../../workflows/refpay-sync/provider"

/**
 * `GET /admin/refpay/attention`: how many REFPAY payments need the shop owner, by kind (expiring within 24 h, paid
 * after cancellation and not refunded, amount mismatch, unknown to the platform, last check failed).
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const settings = (await refpayProvider(req.scope)).settings
  const counts = await countAttention(req.scope, configuredSecrets(settings))
  res.status(200).json({ counts, total: Object.values(counts).reduce((a, b) => a + b, 0) })
}

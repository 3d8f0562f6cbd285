import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ConfigModule } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { sendSandboxTestEvent } from "../../../../../refpay-admin/sandbox-test-event"
import { shopBaseUrl } from "../../../../../refpay-admin/webhook-health"
import { refpayProvider } from "../../../../../workflows/refpay-sync/provider"

/**
 * `POST /admin/refpay/webhooks/test-event` (sandbox environment only): creates a throwaway payment on the REFPAY
 * sandbox simulator, which delivers its PENDING_TRANSACTIONS webhook; the page then watches for it with
 * `GET .../test-event/:payment_id`. 200 `{ test_event: { sent: true, payment_id, ... } }`; 409 with the reason when
 * nothing could be sent (not the sandbox, a sandbox without controls or without a webhook URL, creation refused).
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const settings = (await refpayProvider(req.scope)).settings
  const config = req.scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
  const base = shopBaseUrl(config.admin?.backendUrl, { protocol: req.protocol, host: req.get("host") })
  const result = await sendSandboxTestEvent(settings, `${base.base}/hooks/refpay`)
  res.status(result.sent ? 200 : 409).json({ test_event: result })
}

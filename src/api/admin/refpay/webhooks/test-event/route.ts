import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ConfigModule } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { selectAccount } from "../../../../refpay-accounts"
import { sendSandboxTestEvent } from "./sandbox-test-event"
import { shopBaseUrl, webhookSetup } from "../webhook-health"
import type { AdminRefpayAccountBodyType } from "../../validators"

/**
 * `POST /admin/refpay/webhooks/test-event` (`{ provider_id? }`, sandbox environment only): creates a throwaway
 * payment on the account's REFPAY sandbox simulator, which delivers its PENDING_TRANSACTIONS webhook; the page
 * then watches for it with `GET .../test-event/:payment_id`. 200 `{ test_event: { sent: true, payment_id, ... } }`;
 * 409 with the reason when nothing could be sent (not the sandbox, a sandbox without controls or without a webhook
 * URL, creation refused).
 */
export async function POST(
  req: AuthenticatedMedusaRequest<AdminRefpayAccountBodyType>,
  res: MedusaResponse
): Promise<void> {
  const { providerId, provider, accounts } = await selectAccount(req.scope, req.validatedBody?.provider_id)
  const config = req.scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
  const base = shopBaseUrl(config.admin?.backendUrl, { protocol: req.protocol, host: req.get("host") })
  const { url } = webhookSetup(base, providerId, accounts.length > 1, Boolean(provider.settings.webhookSecret))
  const result = await sendSandboxTestEvent(provider.settings, url)
  res.status(result.sent ? 200 : 409).json({ test_event: { provider_id: providerId, ...result } })
}

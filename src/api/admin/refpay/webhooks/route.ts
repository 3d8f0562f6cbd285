import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ConfigModule, IPaymentModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../../../modules/refpay"
import { isRefpayProviderId } from "../../../../providers/refpay/registry"
import { waitingReferences } from "../../../../refpay-admin/session-queries"
import { shopBaseUrl, webhookSetup, webhookWarnings } from "../../../../refpay-admin/webhook-health"
import { refpayProvider } from "../../../../workflows/refpay-sync/provider"

/**
 * `GET /admin/refpay/webhooks`: the URL to give the platform (from Medusa's admin.backendUrl, MEDUSA_BACKEND_URL,
 * else this request's host), how deliveries authenticate, refused deliveries, the latest accepted one, and warnings
 * (no secret, refused deliveries, silence while payments wait, a URL the platform cannot use).
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const settings = (await refpayProvider(req.scope)).settings
  const events = req.scope.resolve<RefpayModuleService>(REFPAY_MODULE)
  const config = req.scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
  const payments = req.scope.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const [refusals, totals, waiting, providers] = await Promise.all([
    events.listWebhookRefusals(),
    events.deliveryTotals(),
    waitingReferences(req.scope),
    payments.listPaymentProviders({}, { select: ["id"] }),
  ])
  const base = shopBaseUrl(config.admin?.backendUrl, { protocol: req.protocol, host: req.get("host") })
  const secretConfigured = Boolean(settings.webhookSecret)
  const setup = webhookSetup(base, providers.map((p) => p.id).find(isRefpayProviderId) ?? null, secretConfigured)
  const now = new Date()
  res.status(200).json({
    webhooks: {
      ...setup,
      last_delivery_at: totals.last_received_at?.toISOString() ?? null,
      deliveries_recorded: totals.count,
      waiting_payments: waiting.count,
      oldest_waiting_created_at: waiting.oldest_created_at?.toISOString() ?? null,
      refusals: refusals.map((r) => ({
        door: r.door,
        reason: r.reason,
        refused_count: r.refused_count,
        first_refused_at: r.first_refused_at.toISOString(),
        last_refused_at: r.last_refused_at.toISOString(),
      })),
      warnings: webhookWarnings(
        { environment: settings.environment, secretConfigured, webhookUrl: setup.url, lastDeliveryAt: totals.last_received_at, waiting, refusals },
        now
      ),
      test_event_available: settings.environment === "sandbox",
    },
  })
}

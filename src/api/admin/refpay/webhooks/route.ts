import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ConfigModule } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../../../modules/refpay"
import { selectAccount } from "../../../refpay-accounts"
import { waitingReferences } from "../../../../medusa-compat/medusa-tables/session-queries"
import { shopBaseUrl, webhookSetup, webhookWarnings } from "./webhook-health"
import type { AdminRefpayAccountQueryType } from "../validators"

/**
 * `GET /admin/refpay/webhooks?provider_id=`: for one account (the first when not named), the URL to give the
 * platform (from Medusa's admin.backendUrl, MEDUSA_BACKEND_URL, else this request's host; `/hooks/refpay/<id>` when
 * the shop has several REFPAY accounts), how deliveries authenticate, refused deliveries, authentic deliveries that
 * were not usable events, the latest accepted one, and warnings (no secret, refused or unusable deliveries, silence
 * while payments wait, a URL the platform cannot use).
 */
export async function GET(
  req: AuthenticatedMedusaRequest<unknown, AdminRefpayAccountQueryType>,
  res: MedusaResponse
): Promise<void> {
  const query = req.validatedQuery as AdminRefpayAccountQueryType
  const { providerId, provider, accounts } = await selectAccount(req.scope, query.provider_id)
  const settings = provider.settings
  const events = req.scope.resolve<RefpayModuleService>(REFPAY_MODULE)
  const config = req.scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
  const [refusals, malformed, totals, waiting] = await Promise.all([
    events.listWebhookRefusals(providerId),
    events.listMalformedWebhooks(providerId),
    events.deliveryTotals(),
    waitingReferences(req.scope, providerId),
  ])
  const base = shopBaseUrl(config.admin?.backendUrl, { protocol: req.protocol, host: req.get("host") })
  const secretConfigured = Boolean(settings.webhookSecret)
  const setup = webhookSetup(base, providerId, accounts.length > 1, secretConfigured)
  res.status(200).json({
    webhooks: {
      provider_id: providerId,
      ...setup,
      last_delivery_at: totals.last_received_at?.toISOString() ?? null,
      deliveries_recorded: totals.count,
      waiting_payments: waiting.count,
      oldest_waiting_created_at: waiting.oldest_created_at?.toISOString() ?? null,
      refusals: refusals.map((r) => ({
        route: r.route,
        reason: r.reason,
        refused_count: r.refused_count,
        first_refused_at: r.first_refused_at.toISOString(),
        last_refused_at: r.last_refused_at.toISOString(),
      })),
      // Authentic deliveries that were not usable REFPAY events (no payment_id, not JSON): acknowledged, counted.
      malformed: malformed.map((m) => ({
        route: m.route,
        reason: m.reason,
        received_count: m.received_count,
        first_received_at: m.first_received_at.toISOString(),
        last_received_at: m.last_received_at.toISOString(),
      })),
      warnings: webhookWarnings(
        {
          environment: settings.environment,
          secretConfigured,
          webhookUrl: setup.url,
          lastDeliveryAt: totals.last_received_at,
          waiting,
          refusals,
          malformed,
        },
        new Date()
      ),
      test_event_available: settings.environment === "sandbox",
    },
  })
}

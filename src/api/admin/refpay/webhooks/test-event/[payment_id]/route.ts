import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { REFPAY_MODULE, type RefpayModuleService } from "../../../../../../modules/refpay"
import { deliveryViews } from "../../deliveries/delivery-view"
import { selectAccount } from "../../../../../refpay-accounts"
import { testEventProgress } from "../sandbox-test-event"
import type { AdminRefpayAccountQueryType } from "../../../validators"

/**
 * `GET /admin/refpay/webhooks/test-event/:payment_id?provider_id=`: whether the test payment's webhook arrived here
 * (its recorded delivery), and what the account's sandbox says of its delivery attempts (refused with 401,
 * could not connect, ...).
 */
export async function GET(
  req: AuthenticatedMedusaRequest<unknown, AdminRefpayAccountQueryType>,
  res: MedusaResponse
): Promise<void> {
  const paymentId = String(req.params.payment_id)
  const query = req.validatedQuery as AdminRefpayAccountQueryType
  const { provider } = await selectAccount(req.scope, query.provider_id)
  const events = req.scope.resolve<RefpayModuleService>(REFPAY_MODULE)
  const [{ rows }, progress] = await Promise.all([
    events.listDeliveries({ payment_id: paymentId, limit: 10, offset: 0 }),
    testEventProgress(provider.settings, paymentId),
  ])
  const deliveries = await deliveryViews(req.scope, rows)
  res
    .status(200)
    .json({ test_event: { payment_id: paymentId, arrived: deliveries.length > 0, deliveries, ...progress } })
}

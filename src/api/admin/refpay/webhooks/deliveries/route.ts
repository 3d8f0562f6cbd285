import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { REFPAY_MODULE, type RefpayModuleService } from "../../../../../modules/refpay"
import { deliveryViews } from "./delivery-view"
import type { AdminRefpayDeliveriesQueryType } from "../../validators"

/**
 * `GET /admin/refpay/webhooks/deliveries?status=&event_type=&payment_id=&limit=&offset=`: recorded deliveries
 * (`refpay_webhook_event`), newest first, 50 at most a page, each with what became of it: processed, duplicate,
 * unknown_payment, not_processed (the platform delivers it again) or test (an admin test event), and its order.
 */
export async function GET(
  req: AuthenticatedMedusaRequest<unknown, AdminRefpayDeliveriesQueryType>,
  res: MedusaResponse
): Promise<void> {
  const query = req.validatedQuery as AdminRefpayDeliveriesQueryType
  const { rows, count } = await req.scope.resolve<RefpayModuleService>(REFPAY_MODULE).listDeliveries(query)
  res
    .status(200)
    .json({ deliveries: await deliveryViews(req.scope, rows), count, limit: query.limit, offset: query.offset })
}

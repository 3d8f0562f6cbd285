import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { loadLastCheck } from "../../../../../queries/last-check"
import { loadOrderPaymentView } from "../../../../../queries/payment-view"

/**
 * `GET /admin/refpay/orders/:id`: the order's REFPAY payment as Medusa last recorded it (no platform call; see
 * `POST .../sync` to check now), with the last status check (`last_check`: when, outcome, consecutive failures) and
 * every reference of the order, oldest first (`history`: expired and renewed ones too).
 * Admin authentication is applied by Medusa to every /admin route. 404 when the order does not exist or was not
 * paid with REFPAY.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const { view, session, history } = await loadOrderPaymentView(req.scope, req.params.id)
  res.status(200).json({ refpay: { ...view, last_check: await loadLastCheck(req.scope, session.id), history } })
}

import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../../rules/platform-errors"
import { asError } from "../../../../../../medusa-compat/runas-step-errors"
import { issueNewRefpayReferenceWorkflow } from "../../../../../../workflows/refpay-reference/issue-new-reference"
import { loadLastCheck } from "../../../../../../queries/last-check"
import { loadOrderPaymentView } from "../../../../../../queries/payment-view"

/**
 * `POST /admin/refpay/orders/:id/renew`: "Issue a new reference" for an open order whose reference expired or was
 * cancelled unpaid. 400 with the reason otherwise. Answers the order's view with the new reference and the history.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const { session: latest } = await loadOrderPaymentView(req.scope, req.params.id)
  try {
    await issueNewRefpayReferenceWorkflow(req.scope).run({
      input: { order_id: req.params.id, latest_session_id: latest.id },
    })
  } catch (error) {
    throw toMedusaError(asError(error), "issue a new payment reference", "admin")
  }
  const { view, session, history } = await loadOrderPaymentView(req.scope, req.params.id)
  res.status(200).json({ refpay: { ...view, last_check: await loadLastCheck(req.scope, session.id), history } })
}

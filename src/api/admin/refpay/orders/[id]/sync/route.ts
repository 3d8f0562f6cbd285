import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../../rules/platform-errors"
import { syncRefpayPayment, type SyncResult } from "../../../../../../sync/sync-payment"
import { loadLastCheck } from "../../../../../../queries/last-check"
import { loadOrderPaymentView, requireRefpaySessionIds } from "../../../../../../queries/payment-view"

/**
 * `POST /admin/refpay/orders/:id/sync`: the admin's "Check status now". Reads the platform status of each of the
 * order's REFPAY sessions and acts on it exactly as a webhook or the poll job would (capture, cancel, expire,
 * record), then answers the fresh view and what was done: `{ refpay, action }`.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const sessionIds = await requireRefpaySessionIds(req.scope, req.params.id)
  const results: SyncResult[] = []
  for (const sessionId of sessionIds) {
    try {
      results.push(await syncRefpayPayment(req.scope, { sessionId, reason: "admin" }))
    } catch (error) {
      throw toMedusaError(error, "check the payment status", "admin")
    }
  }
  const { view, session, history } = await loadOrderPaymentView(req.scope, req.params.id)
  const action = results.find((result) => result.sessionId === session.id)?.action ?? "none"
  res.status(200).json({ refpay: { ...view, last_check: await loadLastCheck(req.scope, session.id), history }, action })
}

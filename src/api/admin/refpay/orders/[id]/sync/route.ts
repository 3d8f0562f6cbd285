import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../../rules/platform-errors"
import { syncRefpayPayment, type SyncResult } from "../../../../../../sync-triggers/sync-payment"
import { loadLastCheck } from "../../../../../../queries/last-check"
import { loadOrderPaymentView, requireRefpaySessionIds } from "../../../../../../queries/payment-view"
import { refpaySessionIdsForOrder } from "../../../../../../queries/refpay-session-state"
import { deletedSessionIdsOfOrder } from "../../../../../../medusa-compat/medusa-tables/session-queries"

/**
 * `POST /admin/refpay/orders/:id/sync`: the admin's "Check status now". Reads the platform status of each of the
 * order's REFPAY references and acts on it exactly as a webhook or the poll job would (capture, cancel, expire,
 * record), then answers the fresh view and what was done: `{ refpay, action }`. References whose sessions Medusa
 * deleted are checked too, from the plugin's own record (a late payment of one is flagged and listed on the REFPAY
 * page); when no session is left, `refpay` is null.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const orderId = req.params.id
  const [live, deleted] = await Promise.all([
    refpaySessionIdsForOrder(req.scope, orderId),
    deletedSessionIdsOfOrder(req.scope, orderId),
  ])
  if (live.length === 0 && deleted.length === 0) await requireRefpaySessionIds(req.scope, orderId) // answers 404
  const results: SyncResult[] = []
  for (const sessionId of [...deleted, ...live]) {
    try {
      results.push(await syncRefpayPayment(req.scope, { sessionId, reason: "admin" }))
    } catch (error) {
      throw toMedusaError(error, "check the payment status", "admin")
    }
  }
  const acted = results.find((result) => deleted.includes(result.sessionId) && result.action !== "record_check")
  if (live.length === 0) return void res.status(200).json({ refpay: null, action: acted?.action ?? "none" })
  const { view, session, history } = await loadOrderPaymentView(req.scope, orderId)
  const current = results.find((result) => result.sessionId === session.id)?.action
  const action = current && current !== "record_check" ? current : (acted?.action ?? current ?? "none")
  res.status(200).json({ refpay: { ...view, last_check: await loadLastCheck(req.scope, session.id), history }, action })
}

import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { countAttention } from "./attention-lists"
import { refpayProvider } from "../../../../providers/refpay/refpay-providers"

/**
 * `GET /admin/refpay/attention`: how many REFPAY payments need the shop owner, by kind (expiring within 24 h, paid
 * after cancellation and not refunded, refunded totals that differ from the platform's, amount mismatch, unknown to
 * the platform, last check failed). The admin's order list asks on every view: each kind is one COUNT(*) in SQL.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  await refpayProvider(req.scope) // a shop without a REFPAY account gets the 404 that says how to add one
  const counts = await countAttention(req.scope)
  res.status(200).json({ counts, total: Object.values(counts).reduce((a, b) => a + b, 0) })
}

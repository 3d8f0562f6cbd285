import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMedusaError } from "../../../../../../rules/platform-errors"
import { refundLatePayment } from "../../refund-late-payment"
import { configuredSecrets } from "../../../../../../config"
import { refpayProvider } from "../../../../../../providers/refpay/refpay-providers"

/**
 * `POST /admin/refpay/late-payments/:session_id/refund`: the attention list's "Refund" of a payment received after
 * its order was cancelled. Refunds all that is still held, on the platform and in Medusa (see
 * refund-late-payment.ts for why Medusa's own refund route cannot do it for a cancelled order). 200
 * `{ refund: { payment_id, order_id, refunded_cents } }`; 400 when the payment is not such a payment or nothing is
 * left to refund; the platform's refusal as the provider reports it.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const settings = (await refpayProvider(req.scope)).settings
  try {
    const refund = await refundLatePayment(
      req.scope,
      String(req.params.session_id),
      req.auth_context?.actor_id,
      configuredSecrets(settings)
    )
    res.status(200).json({ refund })
  } catch (error) {
    throw toMedusaError(error, "refund the payment", "admin")
  }
}

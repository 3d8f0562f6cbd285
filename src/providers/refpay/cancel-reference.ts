import { MedusaError } from "@medusajs/framework/utils"
import { RefpayConflictError } from "../../lib/refpay"
import { cancellationKeyFor } from "../../rules/identifiers"
import type { RefpaySessionData } from "../../rules/session-data"
import { interpretStatus } from "../../rules/status"
import { shopperError, type ProviderContext } from "./provider-context"
import { syncReference } from "./read-reference"

/**
 * Cancels a WAITING reference; one already cancelled or expired is success. A paid one is never cancelled. The
 * answer says what the platform did: if the customer's payment landed between our status read and the call, the
 * platform refunded it instead, and the returned data says so (APPROVED, refunded) for the caller to record.
 */
export async function cancelReference(context: ProviderContext, data: RefpaySessionData): Promise<RefpaySessionData> {
  if (!data.refpay) return data
  const synced = await syncReference(context, data)
  const reference = synced.refpay!
  const outcome = interpretStatus(reference.status).outcome
  if (outcome === "cancelled" || outcome === "failed") return synced
  if (outcome === "paid") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `REFPAY reference ${reference.reference} has already been paid; refund the payment instead of cancelling it`
    )
  }
  try {
    const result = await context.client.cancelOrRefund({
      paymentId: reference.payment_id,
      amountCents: reference.amount_cents,
      idempotencyKey: cancellationKeyFor(reference.payment_id),
    })
    const status = result.status ?? "CANCELLED"
    const refunded = result.refundedAmountCents ?? reference.refunded_cents
    if (interpretStatus(status).outcome === "paid") {
      context.logger.warn(
        `REFPAY: payment ${reference.payment_id} was paid as it was being cancelled; the platform refunded ${refunded} cents`
      )
    } else {
      context.logger.info(`REFPAY: reference for payment ${reference.payment_id} cancelled`)
    }
    return {
      ...synced,
      refpay: { ...reference, status, refunded_cents: refunded, checked_at: new Date().toISOString() },
    }
  } catch (error) {
    if (error instanceof RefpayConflictError && error.code === "PAYMENT_ALREADY_CANCELLED") {
      return { ...synced, refpay: { ...reference, status: "CANCELLED" } }
    }
    throw shopperError(context, error, "cancel the payment reference")
  }
}

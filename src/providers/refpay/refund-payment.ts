import type { RefundPaymentInput, RefundPaymentOutput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { medusaRefundId } from "../../medusa-compat/refund-before-provider"
import { platformRefundsBeingRecorded } from "../../medusa-compat/refund-recording-context"
import { refundKeyFor } from "../../rules/identifiers"
import { toWholeCents } from "../../rules/money"
import { answeredRefundKeys, decideRefund, platformRefunds } from "../../rules/refunds"
import { readSessionData, type RefpaySessionData } from "../../rules/session-data"
import { shopperError, type ProviderContext } from "./provider-context"
import { readReference } from "./read-reference"

/**
 * Refunds through the platform's cancel/refund call, under an idempotency key derived from Medusa's refund id. The
 * platform's refund records decide (`decideRefund`): a refund it already holds under this key is success without a
 * second call ("already refunded" is success, as in Medusa's Stripe provider); a refund the sync is recording (one
 * the platform made by itself) is recorded, not made again; more than the platform can still refund, or a fraction
 * of a cent, is refused before it is called. A refund the platform answered with success (or was found holding) has
 * its key recorded in the payment's data (`refund_keys`), so no sync takes it for one cut short when a later status
 * read does not list it (interruptedRefunds). Every plugin route and Medusa's refund and cancel routes call this
 * under the session's lock (src/api/medusa-routes/locked-money-routes.ts), so two refunds never interleave here.
 */
export async function refundPayment(context: ProviderContext, input: RefundPaymentInput): Promise<RefundPaymentOutput> {
  const data = readSessionData(input.data)
  if (!data.refpay) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "REFPAY: this payment has no reference to refund")
  }
  const cents = toWholeCents(input.amount)
  const medusaKey = medusaRefundId(input)
  if (!medusaKey) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "REFPAY: a refund needs Medusa's idempotency key")
  }
  const paymentId = data.refpay.payment_id
  const key = refundKeyFor(paymentId, medusaKey)
  const { data: before, status } = await readReference(context, data)
  const recordedKeys = before.refund_keys ?? []
  const decision = decideRefund(
    { cents, key, recording: platformRefundsBeingRecorded(paymentId), recordedKeys },
    {
      amountCents: status.amountCents,
      refundedCents: status.refundedAmountCents,
      refunds: platformRefunds(status.records),
    }
  )
  switch (decision.kind) {
    case "already_made":
      context.logger.info(
        `REFPAY: refund of ${cents} cents for payment ${paymentId} already made on the platform; recorded`
      )
      return { data: { ...before, refund_keys: answeredRefundKeys(recordedKeys, key) } }
    case "record":
      return {
        data: {
          ...before,
          refund_keys: [...recordedKeys, ...decision.keys],
          recording_refund_ids: [...(before.recording_refund_ids ?? []), medusaKey],
        },
      }
    case "refuse":
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, decision.why)
    case "make": {
      const made = await makeRefund(context, before, cents, key)
      return { data: { ...made, refund_keys: answeredRefundKeys(made.refund_keys, key) } }
    }
  }
}

/** Sends a refund; when the answer is lost, the platform's records say whether it was made. */
async function makeRefund(
  context: ProviderContext,
  data: RefpaySessionData,
  cents: number,
  key: string
): Promise<RefpaySessionData> {
  const reference = data.refpay!
  try {
    const result = await context.client.cancelOrRefund({
      paymentId: reference.payment_id,
      amountCents: cents,
      idempotencyKey: key,
    })
    const refunded = result.refundedAmountCents ?? reference.refunded_cents + cents
    return { ...data, refpay: { ...reference, status: result.status ?? reference.status, refunded_cents: refunded } }
  } catch (error) {
    const after = await readReference(context, data).catch(() => null)
    if (after && platformRefunds(after.status.records).some((r) => r.key === key)) return after.data
    throw shopperError(context, error, `refund ${cents} cents`)
  }
}

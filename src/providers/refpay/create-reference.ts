import { MedusaError } from "@medusajs/framework/utils"
import { RefpayConflictError } from "../../lib/refpay"
import { customerForPlatform } from "../../rules/customer"
import { creationKeyFor, orderIdFor, paymentIdFor } from "../../rules/identifiers"
import {
  referenceFromCreation,
  referenceWithStatus,
  type RefpayReference,
  type RefpaySessionData,
} from "../../rules/session-data"
import { shopperError, type ProviderContext } from "./provider-context"

/**
 * Creates the session's reference on the platform, idempotently: its identifiers derive from the session and its
 * generation, so a retry after a lost answer finds the same payment (and adopts it) rather than creating another.
 */
export async function createReference(context: ProviderContext, data: RefpaySessionData): Promise<RefpayReference> {
  let orderId: string
  try {
    orderId = orderIdFor(data.session_id, data.generation)
  } catch (error) {
    throw shopperError(context, error, "create a payment reference")
  }
  const paymentId = paymentIdFor(data.session_id, data.generation)
  try {
    const created = await context.client.createPayment({
      paymentId,
      orderId,
      amountCents: data.amount_cents,
      idempotencyKey: creationKeyFor(data.session_id, data.generation),
      customer: customerForPlatform(data.customer),
    })
    if (created.amountCents !== data.amount_cents) {
      // Never show a customer a reference for another amount than the order's.
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `REFPAY returned ${created.amountCents} cents for a payment of ${data.amount_cents} cents; reference not used`
      )
    }
    context.logger.info(`REFPAY: reference created for session ${data.session_id} (payment ${paymentId})`)
    return referenceFromCreation(created, orderId, context.settings.expiryDays, new Date())
  } catch (error) {
    if (error instanceof RefpayConflictError && error.code === "DUPLICATE_PAYMENT_ID") {
      // Created earlier under the same identifiers, with a lost answer: adopt it if it is this payment.
      return adoptExisting(context, paymentId, orderId, data)
    }
    throw shopperError(context, error, "create a payment reference")
  }
}

async function adoptExisting(
  context: ProviderContext,
  paymentId: string,
  orderId: string,
  data: RefpaySessionData
): Promise<RefpayReference> {
  const status = await context.client.getPayment(paymentId).catch((e) => {
    throw shopperError(context, e, "read the existing payment reference")
  })
  if (status.amountCents !== data.amount_cents || !status.entity || !status.reference) {
    const conflict = new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `REFPAY payment ${paymentId} already exists with other details; start a new payment session`
    )
    throw shopperError(context, conflict, "adopt the existing payment reference")
  }
  const now = new Date()
  const createdAt = status.receivedAt ?? now.toISOString()
  return referenceWithStatus(
    {
      payment_id: paymentId,
      order_id: status.orderId ?? orderId,
      entity: status.entity,
      reference: status.reference,
      amount: status.amount ?? String(data.amount_cents),
      amount_cents: data.amount_cents,
      currency: "EUR",
      status: status.status,
      created_at: createdAt,
      expires_at: new Date(Date.parse(createdAt) + context.settings.expiryDays * 86_400_000).toISOString(),
      refunded_cents: 0,
      checked_at: now.toISOString(),
    },
    status,
    now
  )
}

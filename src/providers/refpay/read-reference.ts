import type { AuthorizePaymentOutput } from "@medusajs/framework/types"
import type { RefpayPaymentStatus } from "../../lib/refpay"
import { referenceWithStatus, type RefpayReference, type RefpaySessionData } from "../../rules/session-data"
import { interpretStatus } from "../../rules/status"
import { shopperError, type ProviderContext } from "./provider-context"

/** The platform's status read of the session's reference, and the session data updated from it. */
export async function readReference(
  context: ProviderContext,
  data: RefpaySessionData
): Promise<{ data: RefpaySessionData; status: RefpayPaymentStatus }> {
  try {
    const status = await context.client.getPayment(data.refpay!.payment_id)
    return { data: { ...data, refpay: referenceWithStatus(data.refpay!, status, new Date()) }, status }
  } catch (error) {
    throw shopperError(context, error, "read the payment status")
  }
}

/** The session data with the platform's current status of its reference. */
export async function syncReference(context: ProviderContext, data: RefpaySessionData): Promise<RefpaySessionData> {
  return (await readReference(context, data)).data
}

/** The platform's paid amount is exactly the session's (a status read without an amount does not count). */
export function paidAmountMatches(data: RefpaySessionData): boolean {
  return data.refpay?.platform_amount_cents === data.amount_cents
}

/** The platform's status as Medusa's: a payment for another amount than the session's never reads as paid. */
export async function authorizationFromPlatform(
  context: ProviderContext,
  data: RefpaySessionData
): Promise<AuthorizePaymentOutput> {
  const synced = await syncReference(context, data)
  const status = interpretStatus(synced.refpay!.status)
  warnIfUnknown(context, status.known, synced.refpay!)
  if (status.outcome === "paid" && !paidAmountMatches(synced)) {
    context.logger.warn(
      `REFPAY: payment ${synced.refpay!.payment_id} reported paid for ${synced.refpay!.amount} cents, the session is for ` +
        `${synced.amount_cents}; not treated as paid`
    )
    return { status: "pending_authorization", data: synced }
  }
  return { status: status.session, data: synced }
}

/** An unknown platform status is logged and read as awaiting payment: it never moves a payment forward. */
export function warnIfUnknown(context: ProviderContext, known: boolean, reference: RefpayReference): void {
  if (!known) {
    context.logger.warn(
      `REFPAY: unknown status "${reference.status}" for payment ${reference.payment_id}; treated as awaiting payment`
    )
  }
}

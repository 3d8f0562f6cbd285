import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { isRefpayProviderId } from "../rules/provider-ids"
import { refpaySessionLockKey } from "../workflows/refpay-sync/sync-payment"

const LOCK_TIMEOUT_SECONDS = 30

/** A route's response, as far as waiting for its end goes (Node's ServerResponse). */
interface Answer {
  once(event: "finish" | "close", listener: () => void): unknown
}

/**
 * Runs the rest of a Medusa route (`next`) while holding the sync lock of each given REFPAY session, released once
 * the answer is sent (or the connection closes). Medusa's own refund and order-cancel routes refund REFPAY payments
 * through the provider outside any lock of ours; held here, no webhook, poll tick or second refund can interleave
 * with them (two overlapping refunds used to be booked twice and paid once). `next(error)` is called when the locks
 * could not be taken in time.
 */
export async function withRefpaySessionLocks(
  container: MedusaContainer,
  sessionIds: string[],
  res: Answer,
  next: (error?: unknown) => void
): Promise<void> {
  if (sessionIds.length === 0) return next()
  const locking = container.resolve<ILockingModule>(Modules.LOCKING)
  let passedOn = false
  try {
    await locking.execute(
      sessionIds.map(refpaySessionLockKey),
      () =>
        new Promise<void>((answered) => {
          res.once("finish", answered)
          res.once("close", answered)
          passedOn = true
          next()
        }),
      { timeout: LOCK_TIMEOUT_SECONDS }
    )
  } catch (error) {
    if (!passedOn) next(error)
  }
}

/** The REFPAY session behind a Medusa payment, if the payment is REFPAY's. */
export async function refpaySessionIdsOfPayment(container: MedusaContainer, paymentId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment", fields: ["id", "provider_id", "payment_session_id"], filters: { id: paymentId } })
  const payment = data[0] as { provider_id: string; payment_session_id: string | null } | undefined
  return payment && isRefpayProviderId(payment.provider_id) && payment.payment_session_id ? [payment.payment_session_id] : []
}

import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { toMedusaError } from "../rules/platform-errors"
import { platformRefunds, unrecordedPlatformRefunds } from "../rules/refunds"
import { loadRefpaySession } from "../queries/refpay-session-state"
import { refpayProviderFor } from "../providers/refpay/lookup"
import { isRefpayProviderId } from "../rules/provider-ids"
import { refpaySessionLockKey, SESSION_LOCK_WAIT_SECONDS } from "../workflows/refpay-sync/session-lock"

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
  next: (error?: unknown) => void,
  /** Checked once the locks are held, before the route runs; a throw answers the request with that error. */
  check: () => Promise<void> = async () => {}
): Promise<void> {
  if (sessionIds.length === 0) return next()
  const locking = container.resolve<ILockingModule>(Modules.LOCKING)
  let passedOn = false
  try {
    await locking.execute(
      sessionIds.map(refpaySessionLockKey),
      async () => {
        await check()
        await new Promise<void>((answered) => {
          res.once("finish", answered)
          res.once("close", answered)
          passedOn = true
          next()
        })
      },
      { timeout: SESSION_LOCK_WAIT_SECONDS }
    )
  } catch (error) {
    if (!passedOn) next(error)
  }
}

/**
 * Refuses a new refund while the platform holds a refund of this payment that Medusa has no record of: an earlier
 * refund whose answer was lost twice (Medusa deleted it, the platform had made it) or one made on the platform. A new
 * refund then would pay the customer twice for one intent; "Check status now" (or the poll job) records the platform's
 * refund first, and the shop owner refunds what is still due. Run under the session's lock.
 */
export async function assertNoUnrecordedPlatformRefund(container: MedusaContainer, sessionId: string): Promise<void> {
  const state = await loadRefpaySession(container, sessionId)
  if (!state?.payment) return
  const platform = await (
    await refpayProviderFor(container, state.providerId)
  ).client
    .getPayment(state.data.refpay!.payment_id)
    .catch((error) => {
      throw toMedusaError(error, "read the payment status before refunding", "admin")
    })
  const unrecorded = unrecordedPlatformRefunds(platformRefunds(platform.records), state.payment.refundKeys)
  if (unrecorded.length === 0) return
  const cents = unrecorded.reduce((total, refund) => total + refund.cents, 0)
  throw new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `The platform has refunded ${cents} cents of this REFPAY payment that Medusa has not recorded yet (a refund whose ` +
      `answer was lost, or one made on the platform). Use "Check status now" on the order's REFPAY panel to record it, ` +
      "then refund what is still due."
  )
}

/** The REFPAY session behind a Medusa payment, if the payment is REFPAY's. */
export async function refpaySessionIdsOfPayment(container: MedusaContainer, paymentId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "provider_id", "payment_session_id"],
    filters: { id: paymentId },
  })
  const payment = data[0] as { provider_id: string; payment_session_id: string | null } | undefined
  return payment && isRefpayProviderId(payment.provider_id) && payment.payment_session_id
    ? [payment.payment_session_id]
    : []
}

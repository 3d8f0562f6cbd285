import { acquireLockStep, cancelOrderWorkflow, releaseLockStep } from "@medusajs/medusa/core-flows"
import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { renewalOf, issueRefpayReferenceWorkflow } from "../refpay-reference/issue-reference"
import {
  asksPlatformToCancel,
  cancelMetPayment,
  cancelsOrder,
  capturesPayment,
  expires,
  flagsLatePayment,
  readingOf,
  renewsReference,
  wasRead,
} from "./branches"
import { refpaySessionLockKey, SESSION_LOCK_WAIT_SECONDS, SYNC_LOCK_LEASE_SECONDS } from "./session-lock"
import {
  cancelOutcomeOrNotAsked,
  cancelRefpayReferenceStep,
  refpayExpiryOutcomeStep,
  saveRefpaySessionStep,
  sessionUpdate,
  type CancelOutcome,
} from "./steps/close-reference"
import { notifyRefpayCustomerStep } from "./steps/notify-customer"
import { readRefpayPaymentStep, type RefpayReading } from "./steps/read-refpay-payment"
import { recordRefpayCheckStep } from "./steps/record-check"
import { captureRefpayPaymentStep, flagRefpayLatePaymentStep, recordRefpayRefundStep } from "./steps/record-payment"

export const refpaySyncWorkflowId = "refpay-sync-payment"

export interface RefpaySyncWorkflowInput {
  sessionId: string
  /** ISO time expiry and the next check are judged against. */
  now: string
  /** Owns the session lock for this run: only this run releases it. */
  lockOwner: string
}

export interface RefpaySyncWorkflowOutput {
  reading: RefpayReading
  cancelled: CancelOutcome
  /** The session of the new reference, when an expiry renewed it. */
  renewedSessionId: string | null
}

type RefpaySyncPassInput = Pick<RefpaySyncWorkflowInput, "sessionId" | "now">

/**
 * One pass of the sync: read both sides and decide (pure table), then act through the branches the decision takes
 * (`when()`, see branches.ts). The session write is undone if a later step fails; the order's cancellation and the
 * renewal are Medusa workflows run as steps of this one, so the engine sees them and rolls them back with it.
 */
export const refpaySyncPassWorkflow = createWorkflow("refpay-sync-pass", (input: RefpaySyncPassInput) => {
  const reading = readRefpayPaymentStep({ sessionId: input.sessionId, now: input.now })

  const cancelOutcome = when("refpay-when-platform-cancel", { reading }, ({ reading }) =>
    asksPlatformToCancel(reading)
  ).then(() => cancelRefpayReferenceStep({ reading }))
  const cancelled = transform({ cancelOutcome }, ({ cancelOutcome }) => cancelOutcomeOrNotAsked(cancelOutcome))

  const update = transform({ reading, cancelled }, ({ reading, cancelled }) => sessionUpdate(reading, cancelled))
  when("refpay-when-session-changes", { update }, ({ update }) => !!update).then(() => {
    saveRefpaySessionStep({ reading, update })
  })

  when("refpay-when-paid", { reading }, ({ reading }) => capturesPayment(reading)).then(() => {
    captureRefpayPaymentStep({ reading })
  })
  when("refpay-when-read", { reading }, ({ reading }) => wasRead(reading)).then(() => {
    recordRefpayRefundStep({ reading })
  })
  when("refpay-when-paid-after-cancellation", { reading }, ({ reading }) => flagsLatePayment(reading)).then(() => {
    flagRefpayLatePaymentStep({ reading })
  })

  const expiry = when("refpay-when-expired", { reading }, ({ reading }) => expires(reading)).then(() =>
    refpayExpiryOutcomeStep({ reading, cancelled })
  )
  const orderCanceled = transform({ reading, expiry }, ({ reading, expiry }) => cancelsOrder(reading, expiry))
  when("refpay-when-order-cancelled", { orderCanceled }, ({ orderCanceled }) => orderCanceled).then(() => {
    cancelOrderWorkflow.runAsStep({
      input: transform({ reading }, ({ reading }) => ({
        order_id: readingOf(reading).state.order!.id,
        canceled_by: "refpay",
      })),
    })
  })
  const renewed = when("refpay-when-renewed", { reading, expiry, cancelled }, ({ reading, expiry, cancelled }) =>
    renewsReference(reading, expiry, cancelled)
  ).then(() =>
    issueRefpayReferenceWorkflow.runAsStep({
      input: transform({ reading }, ({ reading }) => renewalOf(readingOf(reading).state)),
    })
  )
  const renewedSessionId = transform({ renewed }, ({ renewed }): string | null => renewed ?? null)

  const notified = notifyRefpayCustomerStep({ reading, renewedSessionId, orderCanceled, now: input.now })
  recordRefpayCheckStep({ sessionId: input.sessionId, reading, now: input.now, notified })
  return new WorkflowResponse(
    transform({ reading, cancelled, renewedSessionId }, (out): RefpaySyncWorkflowOutput => out)
  )
})

/**
 * The sync of one REFPAY session under its lock (core-flows' lock steps: released at the end, or by the lock
 * step's compensation when a step fails). When a cancellation met the customer's payment, the platform refunded
 * or holds it, and a second pass records what it did. Run it through `syncRefpayPayment`.
 */
export const refpaySyncWorkflow = createWorkflow(refpaySyncWorkflowId, (input: RefpaySyncWorkflowInput) => {
  const key = transform({ input }, ({ input }) => refpaySessionLockKey(input.sessionId))
  acquireLockStep({
    key,
    ownerId: input.lockOwner,
    timeout: SESSION_LOCK_WAIT_SECONDS,
    ttl: SYNC_LOCK_LEASE_SECONDS,
  })
  const pass = transform({ input }, ({ input }): RefpaySyncPassInput => ({
    sessionId: input.sessionId,
    now: input.now,
  }))
  const first = refpaySyncPassWorkflow.runAsStep({ input: pass })
  const again = when("refpay-when-cancel-met-payment", { first }, ({ first }) =>
    cancelMetPayment(first.cancelled)
  ).then(() => refpaySyncPassWorkflow.runAsStep({ input: pass }).config({ name: "refpay-sync-pass-again" }))
  releaseLockStep({ key, ownerId: input.lockOwner })
  return new WorkflowResponse(
    transform({ first, again }, ({ first, again }): RefpaySyncWorkflowOutput => again ?? first)
  )
})

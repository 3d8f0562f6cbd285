import { cancelOrderWorkflow, processPaymentWorkflow, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { renewalOf, issueRefpayReferenceWorkflow } from "../refpay-reference/issue-reference"
import {
  asksPlatformToCancel,
  cancelMetPayment,
  cancelsOrder,
  capturesPayment,
  expires,
  flagsLatePayment,
  snapshotOf,
  renewsReference,
  wasRead,
} from "./branches"
import { refpaySessionLockKey } from "./session-lock"
import { acquireLeasedLock, releaseLeasedLock } from "../locks/leased-lock"
import {
  cancelOutcomeOrNotAsked,
  cancelRefpayReferenceStep,
  refpayExpiryOutcomeStep,
  saveRefpaySessionStep,
  sessionUpdate,
  type CancelOutcome,
} from "./steps/close-reference"
import { removeRefpayInterruptedRefundsStep } from "./steps/interrupted-refunds"
import { notifyRefpayCustomerStep } from "./steps/notify-customer"
import { readRefpayPaymentStep, type SyncSnapshot } from "./steps/read-refpay-payment"
import { recordRefpayCheckStep } from "./steps/record-check"
import {
  beginPlatformRefundRecordingStep,
  captureOf,
  endPlatformRefundRecordingStep,
  findRefpayLatePaymentStep,
  flagRefpayLatePaymentStep,
  lateRefundFor,
  recordsPlatformRefunds,
} from "./steps/record-payment"
import { refundRefpayLatePaymentWorkflow } from "../../medusa-compat/refund-without-credit-line"

export const refpaySyncWorkflowId = "refpay-sync-payment"

export interface RefpaySyncWorkflowInput {
  sessionId: string
  /** ISO time expiry and the next check are judged against. */
  now: string
}

export interface RefpaySyncWorkflowOutput {
  snapshot: SyncSnapshot
  cancelled: CancelOutcome
  /** The session of the new reference, when an expiry renewed it. */
  renewedSessionId: string | null
}

type RefpaySyncPassInput = RefpaySyncWorkflowInput

/**
 * One pass of the sync: read both sides and decide (pure table), then act through the branches the decision takes
 * (`when()`, see branches.ts). The session write is undone if a later step fails. Medusa's workflows (the capture,
 * the late payment's refund, the order's cancellation, the renewal) run as steps of this one (`runAsStep`), so the
 * engine sees them; the cancellation and the renewal are rolled back with it, money moved never is. Medusa's cart
 * lock inside processPaymentWorkflow is skipped in a sub-workflow: the session's lock (taken by refpaySyncWorkflow)
 * covers its authorisation and capture, and a cart completion it starts runs on the workflow engine, under its own.
 */
export const refpaySyncPassWorkflow = createWorkflow("refpay-sync-pass", (input: RefpaySyncPassInput) => {
  const snapshot = readRefpayPaymentStep({ sessionId: input.sessionId, now: input.now })

  const cancelOutcome = when("refpay-when-platform-cancel", { snapshot }, ({ snapshot }) =>
    asksPlatformToCancel(snapshot)
  ).then(() => cancelRefpayReferenceStep({ snapshot }))
  const cancelled = transform({ cancelOutcome }, ({ cancelOutcome }) => cancelOutcomeOrNotAsked(cancelOutcome))

  const update = transform({ snapshot, cancelled }, ({ snapshot, cancelled }) => sessionUpdate(snapshot, cancelled))
  when("refpay-when-session-changes", { update }, ({ update }) => !!update).then(() => {
    saveRefpaySessionStep({ snapshot, update })
  })

  // Money received or sent back is never undone by a later step's failure (`noCompensation`): a sync run again
  // finds it done (capturing or refunding twice is a no-op) and completes what is left.
  when("refpay-when-paid", { snapshot }, ({ snapshot }) => capturesPayment(snapshot)).then(() => {
    processPaymentWorkflow
      .runAsStep({ input: transform({ snapshot }, ({ snapshot }) => captureOf(snapshot)) })
      .config({ name: "refpay-capture-payment", noCompensation: true })
  })
  const toRecord = when("refpay-when-read", { snapshot }, ({ snapshot }) => wasRead(snapshot)).then(() => {
    removeRefpayInterruptedRefundsStep({ snapshot, now: input.now })
    return beginPlatformRefundRecordingStep({ snapshot })
  })
  when("refpay-when-platform-refunds-cancelled-order", { toRecord }, ({ toRecord }) =>
    Boolean(recordsPlatformRefunds(toRecord, "canceled"))
  ).then(() => {
    refundRefpayLatePaymentWorkflow
      .runAsStep({ input: transform({ toRecord }, ({ toRecord }) => recordsPlatformRefunds(toRecord, "canceled")!) })
      .config({ name: "refpay-record-platform-refunds-cancelled-order", noCompensation: true })
  })
  when("refpay-when-platform-refunds-open-order", { toRecord }, ({ toRecord }) =>
    Boolean(recordsPlatformRefunds(toRecord, "open"))
  ).then(() => {
    refundPaymentWorkflow
      .runAsStep({ input: transform({ toRecord }, ({ toRecord }) => recordsPlatformRefunds(toRecord, "open")!) })
      .config({ name: "refpay-record-platform-refunds-open-order", noCompensation: true })
  })
  when("refpay-when-platform-refunds-recorded", { toRecord }, ({ toRecord }) => !!toRecord).then(() => {
    endPlatformRefundRecordingStep(transform({ toRecord }, ({ toRecord }) => ({ paymentId: toRecord!.paymentId })))
  })
  const late = when("refpay-when-paid-after-cancellation", { snapshot }, ({ snapshot }) =>
    flagsLatePayment(snapshot)
  ).then(() => findRefpayLatePaymentStep({ snapshot }))
  when("refpay-when-late-payment-refund-cancelled-order", { late }, ({ late }) =>
    Boolean(lateRefundFor(late, "canceled"))
  ).then(() => {
    refundRefpayLatePaymentWorkflow
      .runAsStep({ input: transform({ late }, ({ late }) => lateRefundFor(late, "canceled")!) })
      .config({ name: "refpay-refund-late-payment-cancelled-order", noCompensation: true })
  })
  when("refpay-when-late-payment-refund-open-order", { late }, ({ late }) => Boolean(lateRefundFor(late, "open"))).then(
    () => {
      refundPaymentWorkflow
        .runAsStep({ input: transform({ late }, ({ late }) => lateRefundFor(late, "open")!) })
        .config({ name: "refpay-refund-late-payment-open-order", noCompensation: true })
    }
  )
  when("refpay-when-late-payment-found", { late }, ({ late }) => !!late).then(() => {
    flagRefpayLatePaymentStep({
      sessionId: input.sessionId,
      late: transform({ late }, ({ late }) => late!),
    })
  })

  const expiry = when("refpay-when-expired", { snapshot }, ({ snapshot }) => expires(snapshot)).then(() =>
    refpayExpiryOutcomeStep({ snapshot, cancelled })
  )
  const orderCanceled = transform({ snapshot, expiry }, ({ snapshot, expiry }) => cancelsOrder(snapshot, expiry))
  when("refpay-when-order-cancelled", { orderCanceled }, ({ orderCanceled }) => orderCanceled).then(() => {
    cancelOrderWorkflow.runAsStep({
      input: transform({ snapshot }, ({ snapshot }) => ({
        order_id: snapshotOf(snapshot).state.order!.id,
        canceled_by: "refpay",
      })),
    })
  })
  const renewed = when("refpay-when-renewed", { snapshot, expiry, cancelled }, ({ snapshot, expiry, cancelled }) =>
    renewsReference(snapshot, expiry, cancelled)
  ).then(() =>
    issueRefpayReferenceWorkflow.runAsStep({
      input: transform({ snapshot }, ({ snapshot }) => renewalOf(snapshotOf(snapshot).state)),
    })
  )
  // A reference another path issued on the collection meanwhile stands: nothing renewed here, nothing e-mailed.
  const renewedSessionId = transform({ renewed }, ({ renewed }): string | null =>
    renewed?.issued ? renewed.session_id : null
  )

  const notified = notifyRefpayCustomerStep({ snapshot, renewedSessionId, orderCanceled, now: input.now })
  recordRefpayCheckStep({ sessionId: input.sessionId, snapshot, now: input.now, notified })
  return new WorkflowResponse(
    transform({ snapshot, cancelled, renewedSessionId }, (out): RefpaySyncWorkflowOutput => out)
  )
})

/**
 * The sync of one REFPAY session under its lock (acquireLeasedLock: core-flows' lock steps, its lease renewed while
 * the sync runs; released at the end, or by the compensation when a step fails). When a cancellation met the customer's payment, the platform refunded
 * or holds it, and a second pass records what it did. Run it through `syncRefpayPayment`.
 */
export const refpaySyncWorkflow = createWorkflow(refpaySyncWorkflowId, (input: RefpaySyncWorkflowInput) => {
  const lock = acquireLeasedLock(transform({ input }, ({ input }) => ({ key: refpaySessionLockKey(input.sessionId) })))
  const pass = transform({ input }, ({ input }): RefpaySyncPassInput => ({
    sessionId: input.sessionId,
    now: input.now,
  }))
  const first = refpaySyncPassWorkflow.runAsStep({ input: pass })
  const again = when("refpay-when-cancel-met-payment", { first }, ({ first }) =>
    cancelMetPayment(first.cancelled)
  ).then(() => refpaySyncPassWorkflow.runAsStep({ input: pass }).config({ name: "refpay-sync-pass-again" }))
  releaseLeasedLock(lock)
  return new WorkflowResponse(
    transform({ first, again }, ({ first, again }): RefpaySyncWorkflowOutput => again ?? first)
  )
})

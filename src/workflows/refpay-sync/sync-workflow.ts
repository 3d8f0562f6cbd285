import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import {
  cancelRefpayOrderStep,
  cancelRefpayReferenceStep,
  saveRefpaySessionStep,
  type CancelOutcome,
} from "./steps/close-reference"
import { notifyRefpayCustomerStep } from "./steps/notify-customer"
import { readRefpayPaymentStep, type RefpayReading } from "./steps/read-refpay-payment"
import { recordRefpayCheckStep } from "./steps/record-check"
import { renewRefpayReferenceStep } from "./steps/renew-reference"
import { captureRefpayPaymentStep, flagRefpayLatePaymentStep, recordRefpayRefundStep } from "./steps/record-payment"

export const refpaySyncWorkflowId = "refpay-sync-payment"

export interface RefpaySyncWorkflowInput {
  sessionId: string
  /** ISO time expiry and the next check are judged against. */
  now: string
}

export interface RefpaySyncWorkflowOutput {
  reading: RefpayReading
  cancelled: CancelOutcome
  /** The session of the new reference, when an expiry renewed it. */
  renewedSessionId: string | null
}

/**
 * One sync of a REFPAY session, as Medusa workflow steps: read both sides and decide (pure table), then act. Each
 * step does one kind of write; the session write is undone if a later step fails, so a crash between two writes
 * does not leave half a change, and every run is visible and retryable in Medusa's workflow engine. Steps the
 * decision does not call for do nothing. Run it through `syncRefpayPayment`, which holds the session lock.
 */
export const refpaySyncWorkflow = createWorkflow(refpaySyncWorkflowId, (input: RefpaySyncWorkflowInput) => {
  const reading = readRefpayPaymentStep({ sessionId: input.sessionId, now: input.now })
  const cancelled = cancelRefpayReferenceStep({ reading })
  saveRefpaySessionStep({ reading, cancelled })
  captureRefpayPaymentStep({ reading })
  recordRefpayRefundStep({ reading })
  flagRefpayLatePaymentStep({ reading })
  const orderCancelled = cancelRefpayOrderStep({ reading, cancelled })
  const renewedSessionId = renewRefpayReferenceStep({ reading, cancelled })
  notifyRefpayCustomerStep({ reading, renewedSessionId, orderCancelled, now: input.now })
  recordRefpayCheckStep({ sessionId: input.sessionId, reading, now: input.now })
  return new WorkflowResponse(
    transform({ reading, cancelled, renewedSessionId }, (out): RefpaySyncWorkflowOutput => out)
  )
})

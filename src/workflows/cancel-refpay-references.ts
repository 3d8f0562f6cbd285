import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { cancelRefpaySessionsStep, type CancelRefpaySessionsInput } from "./steps/cancel-refpay-sessions"

export const cancelRefpayReferencesWorkflowId = "cancel-refpay-references"

/** Cancels on the platform the still-payable REFPAY references of a cancelled order. */
export const cancelRefpayReferencesWorkflow = createWorkflow(
  cancelRefpayReferencesWorkflowId,
  (input: CancelRefpaySessionsInput) => new WorkflowResponse(cancelRefpaySessionsStep(input))
)

import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { PlatformRefund } from "../rules/refunds"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/** Refunds the platform made outside a Medusa refund call, being recorded through Medusa's refund of a payment. */
export interface PlatformRefundRecording {
  /** The REFPAY payment id they belong to. */
  paymentId: string
  refunds: PlatformRefund[]
}

/** The recordings under way in this process, by REFPAY payment id. */
const recordings = new Map<string, PlatformRefund[]>()

/**
 * Reliance on Medusa: Medusa passes a provider's refundPayment nothing of the refund but its amount and id, and runs
 * a workflow's steps, its sub-workflows' (`runAsStep`) and the payment module's provider calls in the process that
 * runs the workflow. So the sync says "record the platform's refunds, do not make a new one" in this process: a step
 * begins the recording of a payment's refunds, Medusa's refund workflow runs as the next step (its provider call
 * reads the recording), and a step ends it (or the first step's compensation, when a later one fails). Only the
 * session's lock holder does this, and every refund of a REFPAY payment runs under that lock, so no other refund of
 * the payment runs meanwhile; a process that dies takes its recordings with it.
 */
export function beginPlatformRefundRecording(recording: PlatformRefundRecording): void {
  recordings.set(recording.paymentId, recording.refunds)
}

export function endPlatformRefundRecording(paymentId: string): void {
  recordings.delete(paymentId)
}

/** The platform refunds being recorded for this REFPAY payment, if the current refund is such a recording. */
export function platformRefundsBeingRecorded(paymentId: string): PlatformRefund[] | undefined {
  return recordings.get(paymentId)
}

/** A workflow that begins a recording, reads it from a sub-workflow's step, and ends it: defined on first use. */
let probe: ReturnType<typeof defineProbe> | undefined
function defineProbe() {
  const begin = createStep("refpay-contract-probe-begin-recording", async (recording: PlatformRefundRecording) => {
    beginPlatformRefundRecording(recording)
    return new StepResponse(recording.paymentId)
  })
  const look = createStep("refpay-contract-probe-read-recording", async (paymentId: string) => {
    return new StepResponse(platformRefundsBeingRecorded(paymentId) ?? null)
  })
  const inner = createWorkflow("refpay-contract-probe-recording-inner", (paymentId: string) => {
    return new WorkflowResponse(look(paymentId))
  })
  const end = createStep("refpay-contract-probe-end-recording", async (paymentId: string) => {
    endPlatformRefundRecording(paymentId)
    return new StepResponse(paymentId)
  })
  return createWorkflow("refpay-contract-probe-recording", (recording: PlatformRefundRecording) => {
    const paymentId = begin(recording)
    const seen = inner.runAsStep({ input: paymentId })
    end(paymentId)
    return new WorkflowResponse(seen)
  })
}

async function seenInsideASubWorkflow(container: MedusaContainer, recording: PlatformRefundRecording) {
  probe ??= defineProbe()
  return (await probe(container).run({ input: recording })).result
}

export const refundRecordingContextReliance: MedusaReliance = {
  name: "refund-recording-context",
  behaviour:
    "A workflow's steps and the steps of a workflow it runs as a step (runAsStep) run in the process that runs it, " +
    "so the provider's refundPayment, called by the payment module inside the refund, sees the recording begun there.",
  upstream: "packages/core/workflows-sdk (LocalWorkflow, runAsStep); packages/modules/payment refundPayment",
  verified: VERIFIED_ON,
  usedBy: ["src/workflows/refpay-sync/steps/record-payment.ts", "src/providers/refpay/service.ts"],
  async check(container) {
    const recording = { paymentId: "probe-payment", refunds: [{ key: "probe-key", cents: 1 }] }
    const seen = await seenInsideASubWorkflow(container, recording)
    if (seen?.[0]?.key !== "probe-key") throw new Error(`a step of the sub-workflow saw ${JSON.stringify(seen)}`)
    if (platformRefundsBeingRecorded(recording.paymentId)) throw new Error("the recording outlived its workflow")
  },
}

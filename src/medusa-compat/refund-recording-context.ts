import { AsyncLocalStorage } from "node:async_hooks"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { PlatformRefund } from "../rules/refunds"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/** A refund the platform made outside a Medusa refund call, being recorded through Medusa's refund of a payment. */
export interface PlatformRefundRecording extends PlatformRefund {
  /** The REFPAY payment id it belongs to. */
  paymentId: string
}

const recording = new AsyncLocalStorage<PlatformRefundRecording>()

/**
 * Reliance on Medusa: Medusa passes a provider's refundPayment nothing of the refund but its amount and id, and runs
 * a workflow's steps, and the payment module its provider calls, in the async context of the awaited `.run()`. So
 * the intent "record the platform's refund, do not make a new one" travels with the call itself: `record` (a Medusa
 * refund workflow of the payment) runs inside it, only code awaited there sees it, nothing is stored that could go
 * stale, and the sync calls it under the session's lock, so no other refund of the payment runs meanwhile.
 */
export function whileRecordingPlatformRefund<T>(refund: PlatformRefundRecording, record: () => Promise<T>): Promise<T> {
  return recording.run(refund, record)
}

/** The platform refund being recorded for this REFPAY payment, if the current call is such a recording. */
export function platformRefundBeingRecorded(paymentId: string): PlatformRefund | undefined {
  const current = recording.getStore()
  return current?.paymentId === paymentId ? { key: current.key, cents: current.cents } : undefined
}

/** A workflow whose step answers what it sees of the recording: defined on first use (names are global). */
let probe: ReturnType<typeof defineProbe> | undefined
function defineProbe() {
  const look = createStep("refpay-contract-probe-recording", async (paymentId: string) => {
    return new StepResponse(platformRefundBeingRecorded(paymentId) ?? null)
  })
  return createWorkflow("refpay-contract-probe-recording", (paymentId: string) => new WorkflowResponse(look(paymentId)))
}

async function seenInsideAWorkflow(container: MedusaContainer, refund: PlatformRefundRecording) {
  probe ??= defineProbe()
  const run = () => probe!(container).run({ input: refund.paymentId })
  return (await whileRecordingPlatformRefund(refund, run)).result
}

export const refundRecordingContextReliance: MedusaReliance = {
  name: "refund-recording-context",
  behaviour:
    "A workflow's steps run in the async context of the awaited run (AsyncLocalStorage reaches them), so the " +
    "provider's refundPayment, called by the payment module inside the refund workflow, sees the recording intent.",
  upstream: "packages/core/workflows-sdk (LocalWorkflow); packages/modules/payment refundPayment (provider input)",
  verified: VERIFIED_ON,
  usedBy: ["src/workflows/refpay-sync/steps/record-payment.ts", "src/providers/refpay/service.ts"],
  async check(container) {
    const refund = { paymentId: "probe-payment", key: "probe-key", cents: 1 }
    const seen = await seenInsideAWorkflow(container, refund)
    if (seen?.key !== refund.key || seen?.cents !== refund.cents)
      throw new Error(`a step inside the run saw ${JSON.stringify(seen)}, not the recording`)
  },
}

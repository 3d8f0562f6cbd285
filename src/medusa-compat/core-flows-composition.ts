import * as coreFlows from "@medusajs/medusa/core-flows"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/**
 * Reliance on Medusa: core-flows keeps exporting the steps and workflows the plugin's workflows compose. They are
 * exported, but Medusa documents few of them as a stable API, and a renamed step breaks a workflow only when it runs.
 */
const CORE_FLOWS = [
  "acquireLockStep",
  "releaseLockStep",
  "addOrderTransactionStep",
  "authorizePaymentSessionStep",
  "cancelOrderWorkflow",
  "completeCartWorkflow",
  "createOrderPaymentCollectionWorkflow",
  "emitEventStep",
  "processPaymentWorkflow",
  "refundPaymentStep",
  "refundPaymentWorkflow",
] as const

export const coreFlowsCompositionReliance: MedusaReliance = {
  name: "core-flows-composition",
  behaviour:
    "core-flows exports the steps and workflows the plugin composes (lock steps, refund step, order transaction, " +
    "process payment, cancel order, order payment collection).",
  upstream: "packages/core/core-flows/src (index exports)",
  verified: VERIFIED_ON,
  usedBy: [
    "src/workflows/refpay-sync/sync-workflow.ts",
    "src/medusa-compat/refund-without-credit-line.ts",
    "src/workflows/refpay-request/request-payment.ts",
    "src/workflows/locks/leased-lock.ts",
  ],
  async check() {
    const flows = coreFlows as unknown as Record<string, unknown>
    const missing = CORE_FLOWS.filter((name) => typeof flows[name] !== "function")
    if (missing.length) throw new Error(`core-flows no longer exports ${missing.join(", ")}`)
  },
}

import type { RefundPaymentInput } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/**
 * Reliance on Medusa: the payment module's refundPayment commits its Refund first, then calls the provider with the
 * Refund's id as `context.idempotency_key`, and deletes the Refund only when that call fails. So the id names one
 * refund across a retry (the platform's refund is sent under a key made from it), and a process that dies during
 * the platform call leaves a Refund shown in Medusa that may never have been made: the sync removes such a one
 * (rules/refunds.ts, interruptedRefunds) as Medusa itself removes one whose call failed.
 */
export function medusaRefundId(input: Pick<RefundPaymentInput, "context">): string | undefined {
  return input.context?.idempotency_key
}

export const refundBeforeProviderReliance: MedusaReliance = {
  name: "refund-before-provider",
  behaviour:
    "refundPayment commits the Refund before calling the provider, passes its id as the idempotency key, and deletes " +
    "it when the call fails. In-process: the calls exist; the compatibility tier's refund step checks the platform's " +
    "refund is keyed by Medusa's Refund id.",
  upstream: "packages/modules/payment/src/services/payment-module.ts refundPayment, refundPaymentFromProvider_",
  verified: VERIFIED_ON,
  usedBy: ["src/providers/refpay/service.ts", "src/workflows/refpay-sync/steps/interrupted-refunds.ts"],
  async check(container) {
    const payments = container.resolve(Modules.PAYMENT) as unknown as Record<string, unknown>
    const missing = ["refundPayment", "deleteRefunds"].filter((method) => typeof payments[method] !== "function")
    if (missing.length) throw new Error(`the payment module has no ${missing.join(", ")}`)
  },
}

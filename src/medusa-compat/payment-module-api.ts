import { Modules } from "@medusajs/framework/utils"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/**
 * Reliance on Medusa: the module service methods the plugin calls outside workflows. They are generated or written
 * per module and typed in @medusajs/types, but a module may rename or drop one between minors.
 */
export const paymentModuleApiReliance: MedusaReliance = {
  name: "payment-module-api",
  behaviour:
    "The payment module offers the calls the plugin makes outside workflows (sessions created, authorised and " +
    "deleted on a collection; refunds deleted when cut short) and the order module its transactions' list and delete.",
  upstream: "packages/modules/payment/src/services/payment-module.ts; packages/modules/order (MedusaService)",
  verified: VERIFIED_ON,
  usedBy: [
    "src/workflows/refpay-reference/issue-reference.ts",
    "src/workflows/refpay-sync/steps/interrupted-refunds.ts",
  ],
  async check(container) {
    const payments = container.resolve(Modules.PAYMENT) as unknown as Record<string, unknown>
    const orders = container.resolve(Modules.ORDER) as unknown as Record<string, unknown>
    const wanted: [string, Record<string, unknown>, string][] = [
      ["payment", payments, "createPaymentSession"],
      ["payment", payments, "authorizePaymentSession"],
      ["payment", payments, "deletePaymentSession"],
      ["payment", payments, "deleteRefunds"],
      ["order", orders, "listOrderTransactions"],
      ["order", orders, "deleteOrderTransactions"],
    ]
    const missing = wanted.filter(([, module, method]) => typeof module[method] !== "function")
    if (missing.length)
      throw new Error(`missing: ${missing.map(([module, , method]) => `${module}.${method}`).join(", ")}`)
  },
}

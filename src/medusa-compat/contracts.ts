import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"
import * as coreFlows from "@medusajs/medusa/core-flows"
import { registeredProvider } from "./provider-registry"

/**
 * The plugin's reliances on Medusa behaviour that is not a public contract, each checked against the Medusa it runs
 * on: the integration suites check them on the version the suite runs (2.21.2), and the compatibility tier on every
 * supported version, inside a real app of that version (`medusa exec` of check-contracts.js). A failure names the
 * reliance, so an upstream change is seen before money goes wrong. Where each reliance is used: its `usedBy`.
 */
export interface MedusaReliance {
  name: string
  /** What the plugin relies on Medusa to do. */
  behaviour: string
  /** The upstream code or issue it comes from. */
  upstream: string
  /** The plugin's files that would break. */
  usedBy: string[]
  /** Throws (with what was seen) when the Medusa this runs on does not behave so. */
  check: (container: MedusaContainer) => Promise<void>
}

export interface RelianceResult {
  name: string
  ok: boolean
  /** What was seen, when it failed. */
  detail?: string
}

/** The columns of Medusa's tables that the plugin's SQL reads (src/queries, src/modules/refpay/reference-facts.ts). */
const TABLE_COLUMNS: Record<string, string[]> = {
  payment_session: [
    "id",
    "provider_id",
    "data",
    "status",
    "payment_collection_id",
    "created_at",
    "updated_at",
    "deleted_at",
  ],
  payment: ["id", "payment_session_id", "captured_at", "data", "deleted_at"],
  capture: ["payment_id", "raw_amount", "amount", "deleted_at"],
  refund: ["payment_id", "raw_amount", "amount", "deleted_at"],
  order_payment_collection: ["order_id", "payment_collection_id", "deleted_at"],
  order: ["id", "display_id", "status", "is_draft_order", "deleted_at"],
}

/** The core-flows exports the plugin's workflows, hooks and routes compose. */
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

export const MEDUSA_RELIANCES: MedusaReliance[] = [
  {
    name: "provider-registry",
    behaviour:
      "The payment module's getWebhookActionAndData({ provider, payload }) reaches the provider of that id (with or " +
      "without its pp_ prefix) and hands it the payload object unchanged: the plugin finds each registration so.",
    upstream: "packages/modules/payment/src/services/payment-module.ts getWebhookActionAndData (pp_ fix in 2.21.2)",
    usedBy: ["src/medusa-compat/provider-registry.ts", "src/providers/refpay/lookup.ts"],
    async check(container) {
      const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
      const ids = (await payments.listPaymentProviders({}, { select: ["id"] }))
        .map((p) => p.id)
        .filter((id) => id.startsWith("pp_refpay_"))
      if (ids.length === 0) throw new Error("no pp_refpay_* provider is registered in this app")
      for (const id of ids) {
        const provider = await registeredProvider<{ client?: unknown }>(payments, id)
        if (!provider?.client) throw new Error(`${id} answered with something that is not REFPAY's provider`)
      }
    },
  },
  {
    name: "core-flows-composition",
    behaviour:
      "core-flows exports the steps and workflows the plugin composes (lock steps, refund step, order transaction, " +
      "process payment, cancel order, order payment collection), and completeCartWorkflow exposes a validate hook.",
    upstream: "packages/core/core-flows/src (index exports; cart/workflows/complete-cart.ts hooks)",
    usedBy: [
      "src/workflows/refpay-sync/sync-workflow.ts",
      "src/workflows/refpay-refund/refund-on-cancelled-order.ts",
      "src/workflows/hooks/refpay-complete-cart.ts",
      "src/workflows/refpay-request/request-payment.ts",
      "src/sync/resume-authorization.ts",
    ],
    async check() {
      const flows = coreFlows as unknown as Record<string, unknown>
      const missing = CORE_FLOWS.filter((name) => typeof flows[name] !== "function")
      if (missing.length) throw new Error(`core-flows no longer exports ${missing.join(", ")}`)
      const hooks = (coreFlows.completeCartWorkflow as unknown as { hooks?: Record<string, unknown> }).hooks
      if (typeof hooks?.validate !== "function") throw new Error("completeCartWorkflow has no validate hook")
    },
  },
  {
    name: "medusa-tables",
    behaviour:
      "Medusa's payment, order and link tables keep the columns the plugin's SQL reads (the admin page's lists, the " +
      "owner's numbers, the poll job's scans, the copies on the payment checks).",
    upstream: "the payment and order modules' migrations; the order-payment_collection link (link-modules)",
    usedBy: ["src/queries/*.ts", "src/modules/refpay/reference-facts.ts", "src/sync/poll.ts"],
    async check(container) {
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const { rows } = await pg.raw(
        `select table_name, column_name from information_schema.columns
          where table_schema = current_schema() and table_name = any(?)`,
        [Object.keys(TABLE_COLUMNS)]
      )
      const present = new Set(
        (rows as { table_name: string; column_name: string }[]).map((r) => `${r.table_name}.${r.column_name}`)
      )
      const missing = Object.entries(TABLE_COLUMNS).flatMap(([table, columns]) =>
        columns.filter((column) => !present.has(`${table}.${column}`)).map((column) => `${table}.${column}`)
      )
      if (missing.length) throw new Error(`missing columns: ${missing.join(", ")}`)
    },
  },
  {
    name: "payment-module-api",
    behaviour:
      "The payment module offers the calls the plugin makes outside workflows (sessions created, authorised and " +
      "deleted on a collection; refunds deleted when cut short) and the order module its transactions' list and delete.",
    upstream: "packages/modules/payment/src/services/payment-module.ts; packages/modules/order (MedusaService)",
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
  },
  {
    name: "webhook-received-event",
    behaviour:
      "Medusa's own webhook route (/hooks/payment/<provider>) emits payment.webhook_received, which the plugin's " +
      "subscriber takes (Medusa delays it 5 s).",
    upstream: "packages/medusa/src/api/hooks/payment/[provider]/route.ts; PaymentWebhookEvents",
    usedBy: ["src/subscribers/refpay-webhook-received.ts"],
    async check() {
      if (PaymentWebhookEvents.WebhookReceived !== "payment.webhook_received")
        throw new Error(`the event is now ${String(PaymentWebhookEvents.WebhookReceived)}`)
    },
  },
]

/** Checks every reliance against the running app; never throws. */
export async function checkMedusaReliances(container: MedusaContainer): Promise<RelianceResult[]> {
  const results: RelianceResult[] = []
  for (const reliance of MEDUSA_RELIANCES) {
    try {
      await reliance.check(container)
      results.push({ name: reliance.name, ok: true })
    } catch (error) {
      results.push({ name: reliance.name, ok: false, detail: (error as Error).message })
    }
  }
  return results
}

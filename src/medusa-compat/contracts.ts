import type { MedusaContainer } from "@medusajs/framework/types"
import { cartCompletionHookReliance } from "./cart-completion-hook"
import { coreFlowsCompositionReliance } from "./core-flows-composition"
import { coreRoutesReliance } from "./core-routes"
import { databaseErrorsReliance } from "./database-errors"
import { medusaTablesReliance } from "./medusa-tables"
import { medusaWebhookRouteReliance } from "./medusa-webhook-route"
import { notificationNoProviderReliance } from "./notification-no-provider"
import { paymentModuleApiReliance } from "./payment-module-api"
import { providerRegistryReliance } from "./provider-registry"
import { refundBeforeProviderReliance } from "./refund-before-provider"
import { refundRecordingContextReliance } from "./refund-recording-context"
import { refundWithoutCreditLineReliance } from "./refund-without-credit-line"
import type { MedusaReliance } from "./reliance"
import { runAsStepErrorsReliance } from "./runas-step-errors"

export type { MedusaReliance } from "./reliance"

/** Every reliance of the plugin on Medusa beyond its public contract: one file each in this folder. */
export const MEDUSA_RELIANCES: MedusaReliance[] = [
  providerRegistryReliance,
  coreFlowsCompositionReliance,
  medusaTablesReliance,
  paymentModuleApiReliance,
  medusaWebhookRouteReliance,
  coreRoutesReliance,
  cartCompletionHookReliance,
  refundWithoutCreditLineReliance,
  refundBeforeProviderReliance,
  refundRecordingContextReliance,
  runAsStepErrorsReliance,
  notificationNoProviderReliance,
  databaseErrorsReliance,
]

export interface RelianceResult {
  name: string
  ok: boolean
  /** What was seen, when it failed. */
  detail?: string
}

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

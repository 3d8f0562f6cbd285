import type { IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { isRefpayProviderId } from "../../providers/refpay/registry"
import { refpayProvider } from "./provider"
import { syncRefpayPayment, type SyncResult } from "./sync-payment"

const PARALLEL_SYNCS = 4

/**
 * The fallback for late or lost webhooks, and the clock for expiry: checks a bounded batch of REFPAY sessions
 * still awaiting payment, oldest check first, each at most once per `pollIntervalMinutes`. Each check is the same
 * locked, idempotent sync a webhook triggers, so a job running on several servers at once does no harm.
 */
export async function pollRefpayPayments(container: MedusaContainer, now = new Date()): Promise<SyncResult[]> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const { pollBatchSize, pollIntervalMinutes } = (await refpayProvider(container)).settings
  const providerIds = await refpayProviderIds(container)
  if (providerIds.length === 0) return []

  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id"],
    filters: {
      provider_id: providerIds,
      status: "pending_authorization",
      updated_at: { $lte: new Date(now.getTime() - pollIntervalMinutes * 60_000) },
    },
    pagination: { take: pollBatchSize, order: { updated_at: "ASC" } },
  })
  const ids = (data as { id: string }[]).map((row) => row.id)
  const results: SyncResult[] = []
  for (let i = 0; i < ids.length; i += PARALLEL_SYNCS) {
    const batch = ids.slice(i, i + PARALLEL_SYNCS)
    const settled = await Promise.allSettled(batch.map((sessionId) => syncRefpayPayment(container, { sessionId, reason: "poll", now })))
    settled.forEach((outcome, index) => {
      if (outcome.status === "fulfilled") results.push(outcome.value)
      else logger.warn(`REFPAY poll: session ${batch[index]} not checked: ${(outcome.reason as Error)?.message}`)
    })
  }
  return results
}

async function refpayProviderIds(container: MedusaContainer): Promise<string[]> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const providers = await payments.listPaymentProviders({}, { select: ["id"] })
  return providers.map((p) => p.id).filter(isRefpayProviderId)
}

import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../modules/refpay"
import { sessionIdFromOrderId } from "../../rules/identifiers"
import { processRecordedEvent, sessionOfEvent } from "./process-webhook-event"
import { eachLimited } from "../poll/each-limited"

/** An event still unprocessed this long after it was recorded is no longer being processed by its delivery. */
export const RETRY_EVENTS_AFTER_MS = 60_000
/** How far back the poll job looks for unprocessed events (the payment's own checks cover it after that). */
const RETRY_WINDOW_MS = 24 * 3_600_000
/** Events retried per poll run, oldest first; the rest wait for the next run. */
const RETRIES_PER_RUN = 200
const PARALLEL_RETRIES = 8

/**
 * Processes again the webhook events that were recorded but not processed: an event answered before its sync
 * finished whose sync then failed, or one whose server died while processing it. The platform is not asked to
 * deliver anything again; the event is only a trigger, so this is its sync run again (locked and idempotent like
 * every sync), and the event is marked with what it did. Events without the platform's order_id are left to the
 * payment's own checks.
 */
export async function retryUnprocessedWebhookEvents(container: MedusaContainer, now: Date): Promise<number> {
  const events = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  const due = await events.listRefpayWebhookEvents(
    {
      processed_at: null,
      event_type: { $ne: "PENDING_TRANSACTIONS" },
      order_id: { $ne: null },
      created_at: {
        $lte: new Date(now.getTime() - RETRY_EVENTS_AFTER_MS),
        $gte: new Date(now.getTime() - RETRY_WINDOW_MS),
      },
    },
    { take: RETRIES_PER_RUN, order: { created_at: "ASC" }, select: ["id", "payment_id", "order_id"] }
  )
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const outcomes = await eachLimited(due, PARALLEL_RETRIES, async (event) => {
    const named = sessionIdFromOrderId(event.order_id!)
    try {
      const sessionId = named ? await sessionOfEvent(container, named, event.payment_id) : null
      // The event names a payment that is not this session's reference: nothing to process for it.
      if (!sessionId) {
        await events.markWebhookEventProcessed(event.id, "unknown_payment")
        return "processed"
      }
      return await processRecordedEvent(container, { id: event.id, sessionId, paymentId: event.payment_id })
    } catch (error) {
      logger.warn(`REFPAY poll: webhook event ${event.id} not processed again: ${(error as Error).message}`)
      return "failed"
    }
  })
  const processed = outcomes.filter((outcome) => outcome === "processed").length
  if (due.length > 0)
    logger.info(`REFPAY poll: ${processed} of ${due.length} unprocessed webhook events processed again`)
  return processed
}

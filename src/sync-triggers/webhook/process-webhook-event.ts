import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../modules/refpay"
import { sessionIdFromOrderId } from "../../rules/identifiers"
import type { RefpayWebhookEvent } from "../../rules/webhook"
import { refpayProviderFor } from "../../providers/refpay/refpay-providers"
import { loadRefpaySessionPayment } from "../../queries/refpay-session-state"
import { syncRefpayPayment } from "../sync-payment"
import { webhookSyncQueue } from "./webhook-sync-queue"

// What becomes of a recorded webhook event: its sync, queued behind the process's other webhook syncs, and its record
// marked with the outcome. Reached from both webhook routes (handle-webhook.ts), from a worker in `server` mode
// (subscribers/refpay-webhook-event-recorded.ts) and from the poll job's retries (retry-webhook-events.ts).

/** An event recorded by the plugin's webhook route, to be processed by whichever process runs the syncs. */
export interface RecordedWebhookEvent {
  /** The recorded event's id (refpay_webhook_event). */
  id: string
  providerId: string
  event: RefpayWebhookEvent
}

type EventOutcome = "processed" | "failed" | "unknown_payment"

/** The processing of each recorded event this process has queued or is running. */
const processingEvents = new Map<string, Promise<EventOutcome>>()

/**
 * Queues a recorded event's processing behind the process's other webhook syncs; never rejects. A delivery of an event
 * already queued or running here (the platform sent it again, or through both routes) joins it instead of running
 * the sync a second time.
 */
export function queueRecordedEvent(container: MedusaContainer, recorded: RecordedWebhookEvent): Promise<EventOutcome> {
  const joined = processingEvents.get(recorded.id)
  if (joined) return joined
  const processing = webhookSyncQueue()
    .run(() => processNewEvent(container, recorded))
    .finally(() => processingEvents.delete(recorded.id))
  processingEvents.set(recorded.id, processing)
  return processing
}

/** A recorded event's session, then its sync; an event of no payment of this account is acknowledged. */
async function processNewEvent(
  container: MedusaContainer,
  { id, providerId, event }: RecordedWebhookEvent
): Promise<EventOutcome> {
  const events = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  let sessionId: string | null
  try {
    sessionId = await findSession(container, event, providerId)
  } catch (error) {
    logger.error(`REFPAY webhook for payment ${event.payment_id} recorded, not processed: ${(error as Error).message}`)
    await events.markWebhookEventFailed(id, "not_processed").catch(() => undefined)
    return "failed"
  }
  if (!sessionId) {
    logger.warn(`REFPAY webhook ${event.event_type} for unknown payment ${event.payment_id}: acknowledged, ignored`)
    await events.markWebhookEventProcessed(id, "unknown_payment").catch(() => undefined)
    return "unknown_payment"
  }
  return processRecordedEvent(container, { id, sessionId, paymentId: event.payment_id })
}

/**
 * Runs the sync a recorded event triggers and records what became of the event: processed (with what the sync did),
 * or not processed, for a redelivery or the poll job to process again. Never rejects.
 */
export async function processRecordedEvent(
  container: MedusaContainer,
  event: { id: string; sessionId: string; paymentId: string }
): Promise<"processed" | "failed"> {
  const events = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  try {
    const result = await syncRefpayPayment(container, { sessionId: event.sessionId, reason: "webhook" })
    await events.markWebhookEventProcessed(event.id, result.action)
    return "processed"
  } catch (error) {
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .error(`REFPAY webhook for payment ${event.paymentId} recorded, not processed: ${(error as Error).message}`)
    await events.markWebhookEventFailed(event.id, "not_processed").catch(() => undefined)
    return "failed"
  }
}

/** The session an event belongs to: from its order_id, else from the platform's record of the payment. */
async function findSession(
  container: MedusaContainer,
  event: RefpayWebhookEvent,
  providerId: string
): Promise<string | null> {
  let sessionId = event.session_id
  if (!sessionId) {
    const provider = await refpayProviderFor(container, providerId)
    const status = await provider.client.getPayment(event.payment_id).catch(() => null)
    sessionId = status?.orderId ? sessionIdFromOrderId(status.orderId) : null
  }
  return sessionId ? sessionOfEvent(container, sessionId, event.payment_id, providerId) : null
}

/**
 * The session an event names, if the event is about it: an event naming our order_id with another payment_id, or a
 * session of another REFPAY account (when the event's account is known), is not.
 */
export async function sessionOfEvent(
  container: MedusaContainer,
  sessionId: string,
  paymentId: string,
  providerId?: string
): Promise<string | null> {
  // The session alone tells: the sync reads the rest afresh under the lock.
  const session = await loadRefpaySessionPayment(container, sessionId)
  if (!session) return (await keptReferenceOf(container, sessionId, paymentId, providerId)) ? sessionId : null
  const ours = providerId === undefined || session.providerId === providerId
  return ours && session.paymentId.toLowerCase() === paymentId.toLowerCase() ? sessionId : null
}

/** A session Medusa deleted whose reference the plugin kept: the event is about it when the payment is the kept one. */
async function keptReferenceOf(
  container: MedusaContainer,
  sessionId: string,
  paymentId: string,
  providerId?: string
): Promise<boolean> {
  const kept = await container.resolve<RefpayModuleService>(REFPAY_MODULE).keptReference(sessionId)
  const ours = !!kept && (providerId === undefined || kept.provider_id === providerId)
  return ours && String(kept.reference?.payment_id ?? "").toLowerCase() === paymentId.toLowerCase()
}

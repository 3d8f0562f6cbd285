import { createHash } from "node:crypto"
import { setTimeout as after } from "node:timers/promises"
import type { ConfigModule, IEventBusModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../modules/refpay"
import { sessionIdFromOrderId } from "../rules/identifiers"
import {
  medusaRouteProofMatches,
  readWebhookEvent,
  webhookSecretMatches,
  type MalformedWebhookReason,
  type RefpayWebhookEvent,
} from "../rules/webhook"
import { refpayProviderFor, refpayProviderIds } from "../providers/refpay/lookup"
import { loadRefpaySessionPayment } from "../queries/refpay-session-state"
import { syncRefpayPayment } from "./sync-payment"
import { webhookSyncQueue } from "./webhook-sync-queue"

export interface WebhookDelivery {
  /** Parsed JSON body, or the raw bytes. */
  body: unknown
  rawBody?: Buffer
  headers: Record<string, unknown>
  /** Which webhook route it came through: "medusa" for Medusa's route, "refpay" for the plugin's route. */
  route: "medusa" | "refpay"
  /** Medusa's webhook route: the parsed body its middleware signed (see MEDUSA_ROUTE_PROOF_HEADER). */
  signedBody?: unknown
  /** The registration the delivery is for (`pp_refpay_<id>`); unnamed means the shop's only one. */
  providerId?: string
}

/**
 * The plugin's webhook route presents the shared secret itself; Medusa's webhook route the proof its middleware left
 * (see MEDUSA_ROUTE_PROOF_HEADER).
 */
function authenticated(delivery: WebhookDelivery, secret: string | undefined): boolean {
  if (delivery.route === "refpay") return webhookSecretMatches(delivery.headers, secret)
  return medusaRouteProofMatches(delivery.headers, secret, Buffer.from(JSON.stringify(delivery.signedBody ?? null)))
}

export interface WebhookAnswer {
  status: 200 | 400 | 401 | 503
  body: {
    received: boolean
    duplicate?: boolean
    processed?: boolean
    /** Answered before its sync finished (see webhookAnswerWithinMs); the sync goes on. */
    accepted?: boolean
    ignored?: string
    message?: string
  }
}

/**
 * Both webhook routes end here. The event is authenticated (shared secret, constant time), recorded (a repeated
 * delivery of a processed event does nothing), and then only used as a trigger: its sync, queued behind the process's
 * other webhook syncs, ties it to its payment session and reads the real status from the platform before anything
 * changes. The answer waits for the sync at most `webhookAnswerWithinMs`.
 */
export async function handleRefpayWebhook(
  container: MedusaContainer,
  delivery: WebhookDelivery
): Promise<WebhookAnswer> {
  const received = await webhookSyncQueue().recordingDelivery(() => receiveDelivery(container, delivery))
  if ("answer" in received) return received.answer
  const { recorded, answerWithinMs } = received
  if (delivery.route === "refpay" && (await handedToWorkers(container, recorded))) {
    return { status: 200, body: { received: true, processed: false, accepted: true } }
  }
  const processing = queueRecordedEvent(container, recorded)
  // Syncs queued behind others (a burst): waiting for this one would only spend the platform's patience.
  const outcome =
    webhookSyncQueue().queued > 0
      ? "still_running"
      : await Promise.race([processing, after(answerWithinMs, "still_running" as const, { ref: false })])
  if (outcome === "processed") return { status: 200, body: { received: true, processed: true } }
  if (outcome === "unknown_payment") return { status: 200, body: { received: true, ignored: "unknown payment" } }
  if (outcome === "failed") {
    // Recorded but not processed, and the platform is still waiting: answered 503 so that it delivers it again (only
    // a processed event counts as a duplicate). The poll job retries it meanwhile.
    return { status: 503, body: { received: true, processed: false, message: "Not processed yet; deliver it again" } }
  }
  // Answered before the sync has finished (a burst of payments keeps the server busy): the platform would otherwise
  // stop waiting and send the event again, and every copy would run the sync again. The event is recorded; if its
  // sync fails from here on, or the process stops first, the poll job's next run processes it
  // (retryUnprocessedWebhookEvents).
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .info(`REFPAY webhook for payment ${recorded.event.payment_id} answered while its sync goes on`)
  return { status: 200, body: { received: true, processed: false, accepted: true } }
}

type ReceivedDelivery = { answer: WebhookAnswer } | { recorded: RecordedWebhookEvent; answerWithinMs: number }

/**
 * Everything a delivery needs before it can be answered, and nothing more (a burst's answers wait for it): the
 * registration, the secret, the event's shape, and its record.
 */
async function receiveDelivery(container: MedusaContainer, delivery: WebhookDelivery): Promise<ReceivedDelivery> {
  const providerId = delivery.providerId ?? (await soleRegistration(container))
  if (!providerId) {
    return {
      answer: {
        status: 400,
        body: { received: false, message: "Several REFPAY accounts are configured: deliver to /hooks/refpay/<id>" },
      },
    }
  }
  const provider = await refpayProviderFor(container, providerId)
  if (!authenticated(delivery, provider.settings.webhookSecret)) {
    return { answer: { status: 401, body: { received: false, message: "Missing or wrong webhook secret" } } }
  }
  const reading = readWebhookEvent(delivery.body)
  if (!reading.usable) return { answer: await acknowledgeMalformed(container, delivery, providerId, reading.problem) }
  const event = reading.event

  const events = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  // A reference was created: nothing can have changed that the checkout did not already record, so no status read
  // (it would double the platform calls of every checkout). It is recorded as processed, and the poll job checks
  // anyway.
  const created = event.event_type === "PENDING_TRANSACTIONS"
  const { id, duplicate, processed } = await events.recordWebhookEvent({
    event_key: event.event_id ?? bodyHash(delivery),
    event_type: event.event_type,
    payment_id: event.payment_id,
    order_id: event.order_id ?? null,
    route: delivery.route,
    processed_outcome: created ? "nothing_to_do" : undefined,
  })
  if (duplicate) return { answer: { status: 200, body: { received: true, duplicate: true } } }
  if (created) {
    // Recorded earlier and not marked (the process stopped in between): marked now.
    if (!processed) await events.markWebhookEventProcessed(id, "nothing_to_do")
    return { answer: { status: 200, body: { received: true, processed: true } } }
  }
  return { recorded: { id, providerId, event }, answerWithinMs: provider.settings.webhookAnswerWithinMs }
}

/** An event recorded by the plugin's webhook route, to be processed by whichever process runs the syncs. */
export interface RecordedWebhookEvent {
  /** The recorded event's id (refpay_webhook_event). */
  id: string
  providerId: string
  event: RefpayWebhookEvent
}

/** Emitted by a process in `server` mode for the workers (the Redis event bus hands it to one of them). */
export const WEBHOOK_EVENT_RECORDED = "refpay.webhook_event.recorded"

/**
 * A process in Medusa's `server` mode answers HTTP only: it hands the recorded event to the workers through Medusa's
 * event bus and answers at once. False in `shared` mode, or when the event bus refuses it (Redis down): the event is
 * then processed here.
 */
async function handedToWorkers(container: MedusaContainer, recorded: RecordedWebhookEvent): Promise<boolean> {
  const config = container.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE)
  if (config.projectConfig.workerMode !== "server") return false
  try {
    await container
      .resolve<IEventBusModuleService>(Modules.EVENT_BUS)
      .emit({ name: WEBHOOK_EVENT_RECORDED, data: recorded })
    return true
  } catch (error) {
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .warn(
        `REFPAY webhook for payment ${recorded.event.payment_id}: not handed to the workers, processed here: ${(error as Error).message}`
      )
    return false
  }
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

/** A recorded event's session, then its sync; an event of no payment of this registration is acknowledged. */
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

const MALFORMED_ANSWER: Record<MalformedWebhookReason, string> = {
  no_payment_id: "Not a usable REFPAY event: no payment_id; acknowledged and ignored",
  no_event_type: "Not a usable REFPAY event: no event_type; acknowledged and ignored",
  not_json: "Not a usable REFPAY event: the body is not JSON; acknowledged and ignored",
  not_an_object: "Not a usable REFPAY event: the body is not a JSON object; acknowledged and ignored",
}

/**
 * An authentic delivery (the secret was right) that is not a usable REFPAY event: answered 200, counted for the
 * admin's REFPAY page, and otherwise ignored.
 *
 * Why 200 and not 400: nothing in this delivery will ever change, so it can never succeed. A 400 makes the platform
 * deliver it again and again until it gives up, and a platform that sees an endpoint fail for long may stop calling
 * it altogether, taking the good events with it, while nobody at the shop hears of it (only the poll job would keep
 * payments moving, minutes late). The delivery is authentic, so the platform really sent it: the shop owner is the
 * one who must hear about it, and does, from the count and warning on the REFPAY page. Nothing is lost by
 * acknowledging it: an event is only a trigger, and the poll job checks every waiting payment anyway.
 */
async function acknowledgeMalformed(
  container: MedusaContainer,
  delivery: WebhookDelivery,
  providerId: string,
  problem: MalformedWebhookReason
): Promise<WebhookAnswer> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  logger.warn(
    `REFPAY webhook through ${delivery.route === "refpay" ? "/hooks/refpay" : "Medusa's route"} is not a usable event (${problem}): acknowledged, ignored`
  )
  try {
    await container
      .resolve<RefpayModuleService>(REFPAY_MODULE)
      .recordMalformedWebhook({ route: delivery.route, reason: problem, provider_id: providerId })
  } catch (error) {
    logger.warn(`REFPAY: a malformed webhook delivery could not be counted: ${(error as Error).message}`)
  }
  return { status: 200, body: { received: true, ignored: MALFORMED_ANSWER[problem] } }
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
 * session of another REFPAY account (when the event's registration is known), is not.
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

/** The only REFPAY registration, or null when there are several (a delivery must then name its own). */
async function soleRegistration(container: MedusaContainer): Promise<string | null> {
  const ids = await refpayProviderIds(container)
  return ids.length === 1 ? ids[0]! : null
}

function bodyHash(delivery: WebhookDelivery): string {
  const bytes = delivery.rawBody ?? Buffer.from(JSON.stringify(delivery.body ?? null))
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`
}

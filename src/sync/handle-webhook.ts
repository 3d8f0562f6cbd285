import { createHash } from "node:crypto"
import { setTimeout as after } from "node:timers/promises"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
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
import { loadRefpaySession } from "../queries/refpay-session-state"
import { syncRefpayPayment } from "./sync-payment"

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
 * delivery of a processed event does nothing), tied to its payment session, and then only used as a trigger: the
 * sync reads the real status from the platform before anything changes.
 */
export async function handleRefpayWebhook(
  container: MedusaContainer,
  delivery: WebhookDelivery
): Promise<WebhookAnswer> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const providerId = delivery.providerId ?? (await soleRegistration(container))
  if (!providerId) {
    return {
      status: 400,
      body: { received: false, message: "Several REFPAY accounts are configured: deliver to /hooks/refpay/<id>" },
    }
  }
  const provider = await refpayProviderFor(container, providerId)
  if (!authenticated(delivery, provider.settings.webhookSecret)) {
    return { status: 401, body: { received: false, message: "Missing or wrong webhook secret" } }
  }
  const reading = readWebhookEvent(delivery.body)
  if (!reading.usable) return acknowledgeMalformed(container, delivery, providerId, reading.problem)
  const event = reading.event

  const events = container.resolve<RefpayModuleService>(REFPAY_MODULE)
  const recorded = await events.recordWebhookEvent({
    event_key: event.event_id ?? bodyHash(delivery),
    event_type: event.event_type,
    payment_id: event.payment_id,
    order_id: event.order_id ?? null,
    door: delivery.route,
  })
  if (recorded.duplicate) return { status: 200, body: { received: true, duplicate: true } }
  if (event.event_type === "PENDING_TRANSACTIONS") {
    // A reference was created: nothing can have changed that the checkout did not already record, so no status
    // read (it would double the platform calls of every checkout). It is recorded, and the poll job checks anyway.
    await events.markWebhookEventProcessed(recorded.id, "nothing_to_do")
    return { status: 200, body: { received: true, processed: true } }
  }

  const sessionId = await findSession(container, event, providerId)
  if (!sessionId) {
    logger.warn(`REFPAY webhook ${event.event_type} for unknown payment ${event.payment_id}: acknowledged, ignored`)
    await events.markWebhookEventProcessed(recorded.id, "unknown_payment")
    return { status: 200, body: { received: true, ignored: "unknown payment" } }
  }
  const processing = processRecordedEvent(container, { id: recorded.id, sessionId, paymentId: event.payment_id })
  const outcome = await Promise.race([
    processing,
    after(provider.settings.webhookAnswerWithinMs, "still_running" as const, { ref: false }),
  ])
  if (outcome === "processed") return { status: 200, body: { received: true, processed: true } }
  if (outcome === "failed") {
    // Recorded but not processed, and the platform is still waiting: answered 503 so that it delivers it again (only
    // a processed event counts as a duplicate). The poll job retries it meanwhile.
    return { status: 503, body: { received: true, processed: false, message: "Not processed yet; deliver it again" } }
  }
  // Answered before the sync has finished (a burst of payments keeps the server busy): the platform would otherwise
  // stop waiting and send the event again, and every copy would run the sync again. The event is recorded; if its
  // sync fails from here on, the poll job's next run processes it (retryUnprocessedWebhookEvents).
  logger.info(`REFPAY webhook for payment ${event.payment_id} answered while its sync goes on`)
  return { status: 200, body: { received: true, processed: false, accepted: true } }
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
      .recordMalformedWebhook({ door: delivery.route, reason: problem, provider_id: providerId })
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
  if (!sessionId) return null
  const state = await loadRefpaySession(container, sessionId)
  // An event naming our order_id with another payment_id, or a session of another REFPAY account, is not about it.
  const matches =
    state?.providerId === providerId && state?.data.refpay?.payment_id.toLowerCase() === event.payment_id.toLowerCase()
  return matches ? sessionId : null
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

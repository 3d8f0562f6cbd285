import { createHash } from "node:crypto"
import { setTimeout as after } from "node:timers/promises"
import type { ConfigModule, IEventBusModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../modules/refpay"
import { medusaRouteProofMatches, readWebhookEvent, webhookSecretMatches } from "../../rules/webhook"
import { refpayProviderFor, refpayProviderIds } from "../../providers/refpay/refpay-providers"
import { acknowledgeMalformed } from "./malformed-delivery"
import { queueRecordedEvent, type RecordedWebhookEvent } from "./process-webhook-event"
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
  /** The account the delivery is for (`pp_refpay_<id>`); unnamed means the shop's only one. */
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
 * account, the secret, the event's shape, and its record.
 */
async function receiveDelivery(container: MedusaContainer, delivery: WebhookDelivery): Promise<ReceivedDelivery> {
  const providerId = delivery.providerId ?? (await soleProviderId(container))
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
  const parsed = readWebhookEvent(delivery.body)
  if (!parsed.usable) return { answer: await acknowledgeMalformed(container, delivery, providerId, parsed.problem) }
  const event = parsed.event

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

/** The only REFPAY account, or null when there are several (a delivery must then name its own). */
async function soleProviderId(container: MedusaContainer): Promise<string | null> {
  const ids = await refpayProviderIds(container)
  return ids.length === 1 ? ids[0]! : null
}

function bodyHash(delivery: WebhookDelivery): string {
  const bytes = delivery.rawBody ?? Buffer.from(JSON.stringify(delivery.body ?? null))
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`
}

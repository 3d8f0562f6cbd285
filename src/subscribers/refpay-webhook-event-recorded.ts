import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { WEBHOOK_EVENT_RECORDED } from "../sync-triggers/webhook/handle-webhook"
import { queueRecordedEvent, type RecordedWebhookEvent } from "../sync-triggers/webhook/process-webhook-event"

/**
 * A delivery to the plugin's webhook route that a process in `server` mode recorded and answered: its sync runs here,
 * on a worker. Should this process stop first, the event stays recorded and unprocessed, and the poll job's next run
 * processes it (retry-webhook-events.ts).
 */
export default async function refpayWebhookEventRecorded({ event, container }: SubscriberArgs<RecordedWebhookEvent>) {
  const outcome = await queueRecordedEvent(container, event.data)
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .info(`REFPAY webhook for payment ${event.data.event.payment_id}, answered by a server: ${outcome} on this worker`)
}

export const config: SubscriberConfig = { event: WEBHOOK_EVENT_RECORDED }

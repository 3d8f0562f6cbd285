import type { EntityManager } from "@medusajs/framework/mikro-orm/knex"
import { generateEntityId } from "@medusajs/framework/utils"
import type { WebhookRoute } from "../../rules/webhook"

/** The webhook ledger: one row per event (`refpay_webhook_event`), however many times it is delivered. */

export interface RecordEventInput {
  event_key: string
  event_type: string
  payment_id: string
  order_id?: string | null
  route: WebhookRoute
}

export interface RecordedEvent {
  id: string
  /** True when this event was already processed: the delivery must do nothing. */
  duplicate: boolean
}

/**
 * Records a delivery in one statement (a burst's deliveries each wait for it before their answer): a new event is
 * inserted; a repeated one counts one more delivery and is a duplicate once processed. The unique event_key makes
 * this safe across processes: of two concurrent deliveries one inserts, the other counts (and both go on to a sync
 * that is itself locked and idempotent).
 */
export async function recordWebhookEvent(manager: EntityManager, input: RecordEventInput): Promise<RecordedEvent> {
  const [row]: { id: string; processed_at: Date | null }[] = await manager.getConnection().execute(
    `insert into "refpay_webhook_event" ("id", "event_key", "event_type", "payment_id", "order_id", "route")
     values (?, ?, ?, ?, ?, ?)
     on conflict ("event_key") where "deleted_at" is null
     do update set "deliveries" = "refpay_webhook_event"."deliveries" + 1, "updated_at" = now()
     returning "id", "processed_at"`,
    [
      generateEntityId(undefined, "rpwh"),
      input.event_key,
      input.event_type,
      input.payment_id,
      input.order_id ?? null,
      input.route,
    ]
  )
  return { id: row!.id, duplicate: row!.processed_at !== null }
}

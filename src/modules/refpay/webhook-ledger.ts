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
  /**
   * An event that needs no processing (a reference created): recorded as processed with this outcome by the same
   * statement, when it is new.
   */
  processed_outcome?: string
}

export interface RecordedEvent {
  id: string
  /** True when this event was already processed: the delivery must do nothing. */
  duplicate: boolean
  /** The event is processed: a duplicate, or a new one recorded with `processed_outcome`. */
  processed: boolean
}

/**
 * Records a delivery in one statement (a burst's deliveries each wait for it before their answer): a new event is
 * inserted; a repeated one counts one more delivery and is a duplicate once processed. The unique event_key makes
 * this safe across processes: of two concurrent deliveries one inserts, the other counts (and both go on to a sync
 * that is itself locked and idempotent).
 */
export async function recordWebhookEvent(manager: EntityManager, input: RecordEventInput): Promise<RecordedEvent> {
  const outcome = input.processed_outcome ?? null
  const [row]: { id: string; processed_at: Date | null; deliveries: number }[] = await manager.getConnection().execute(
    `insert into "refpay_webhook_event" ("id", "event_key", "event_type", "payment_id", "order_id", "route", "outcome", "processed_at")
     values (?, ?, ?, ?, ?, ?, ?, case when ?::text is null then null else now() end)
     on conflict ("event_key") where "deleted_at" is null
     do update set "deliveries" = "refpay_webhook_event"."deliveries" + 1, "updated_at" = now()
     returning "id", "processed_at", "deliveries"`,
    [
      generateEntityId(undefined, "rpwh"),
      input.event_key,
      input.event_type,
      input.payment_id,
      input.order_id ?? null,
      input.route,
      outcome,
      outcome,
    ]
  )
  // Only the first delivery inserts (deliveries 1): a later one finds the row and counts itself.
  const duplicate = row!.deliveries > 1 && row!.processed_at !== null
  return { id: row!.id, duplicate, processed: row!.processed_at !== null }
}

/**
 * Notes what became of an event in one statement (a delivery's answer or its sync's end waits for it): its outcome,
 * and, when `processed`, the time it was processed, which makes later deliveries duplicates.
 */
export async function markWebhookEvent(
  manager: EntityManager,
  id: string,
  mark: { processed: boolean; outcome: string }
): Promise<void> {
  await manager.getConnection().execute(
    `update "refpay_webhook_event"
        set "outcome" = ?, "processed_at" = case when ?::boolean then now() else "processed_at" end, "updated_at" = now()
      where "id" = ? and "deleted_at" is null`,
    [mark.outcome, mark.processed, id]
  )
}

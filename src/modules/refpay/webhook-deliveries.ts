import type { EntityManager } from "@medusajs/framework/mikro-orm/knex"
import type { WebhookRoute } from "../../rules/webhook"

/** Paging through the recorded deliveries for the admin page, with what became of each. */

/**
 * The `order_id` of the throwaway payments the admin page's "Send a test event" creates in the sandbox: their
 * deliveries are shown as test events, not as unknown payments.
 */
export const TEST_EVENT_ORDER_PREFIX = "refpay-test-"

/** What became of a recorded delivery, derived from processed_at, outcome, deliveries and order_id. */
export type DeliveryStatus = "processed" | "duplicate" | "unknown_payment" | "not_processed" | "test"

export interface DeliveryFilter {
  status?: DeliveryStatus
  event_type?: string
  payment_id?: string
  limit: number
  offset: number
}

export interface DeliveryRow {
  id: string
  event_type: string
  payment_id: string
  order_id: string | null
  route: WebhookRoute
  deliveries: number
  processed_at: Date | null
  outcome: string | null
  /** When the first delivery arrived. */
  received_at: Date
  /** When the record last changed (a further delivery, processing). */
  updated_at: Date
  status: DeliveryStatus
}

/** A row of the deliveries query as PostgreSQL returns it (counts as strings or numbers, times as dates or text). */
type DeliveryTableRow = Omit<DeliveryRow, "deliveries" | "processed_at" | "received_at" | "updated_at"> & {
  deliveries: string | number
  processed_at: string | Date | null
  created_at: string | Date
  updated_at: string | Date
}

/**
 * Recorded deliveries, newest first, with what became of each. The status is derived in SQL so it can be
 * filtered and paginated there: test (an admin test event), not_processed (recorded, not processed: the
 * platform delivers it again), unknown_payment, duplicate (processed, delivered more than once), processed.
 */
export async function listDeliveries(
  manager: EntityManager,
  filter: DeliveryFilter
): Promise<{ rows: DeliveryRow[]; count: number }> {
  const knex = manager.getKnex()
  const status = knex.raw(
    `case when "order_id" like ? then 'test'
          when "processed_at" is null then 'not_processed'
          when "outcome" = 'unknown_payment' then 'unknown_payment'
          when "deliveries" > 1 then 'duplicate'
          else 'processed' end`,
    [`${TEST_EVENT_ORDER_PREFIX}%`]
  )
  const columns = ["id", "event_type", "payment_id", "order_id", "route", "deliveries", "processed_at", "outcome"]
  const base = knex
    .from(
      knex("refpay_webhook_event")
        .select(...columns, "created_at", "updated_at")
        .select({ status })
        .whereNull("deleted_at")
        .as("e")
    )
    .modify((query) => {
      if (filter.status) query.where("status", filter.status)
      if (filter.event_type) query.where("event_type", filter.event_type)
      if (filter.payment_id) query.where("payment_id", filter.payment_id)
    })
  const [rows, [{ count }]] = await Promise.all([
    base
      .clone()
      .select("*")
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(filter.limit)
      .offset(filter.offset),
    base.clone().count({ count: "*" }),
  ])
  return { count: Number(count), rows: (rows as DeliveryTableRow[]).map(toDeliveryRow) }
}

function toDeliveryRow(row: DeliveryTableRow): DeliveryRow {
  return {
    id: row.id,
    event_type: row.event_type,
    payment_id: row.payment_id,
    order_id: row.order_id,
    route: row.route,
    deliveries: Number(row.deliveries),
    processed_at: row.processed_at ? new Date(row.processed_at) : null,
    outcome: row.outcome,
    received_at: new Date(row.created_at),
    updated_at: new Date(row.updated_at),
    status: row.status,
  }
}

/** When the latest delivery (accepted, any outcome) arrived, and how many were ever recorded. */
export async function deliveryTotals(
  manager: EntityManager
): Promise<{ last_received_at: Date | null; count: number }> {
  const [row] = await manager
    .getKnex()("refpay_webhook_event")
    .whereNull("deleted_at")
    .max({ last: "updated_at" })
    .count({ count: "*" })
  return { last_received_at: row?.last ? new Date(row.last as string) : null, count: Number(row?.count ?? 0) }
}

import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { DeliveryRow, DeliveryStatus } from "../../../../../modules/refpay"
import { sessionIdFromOrderId } from "../../../../../rules/identifiers"
import type { WebhookRoute } from "../../../../../rules/webhook"

/** One recorded webhook delivery as the admin page lists it (field by field: dates as ISO strings). */
export interface DeliveryView {
  id: string
  received_at: string
  last_activity_at: string
  event_type: string
  /** REFPAY's payment id, as the event named it. */
  payment_id: string
  /** The platform's order_id as the event named it (ps_<ULID> for this shop's payments). */
  order_id: string | null
  /** The Medusa order the payment belongs to, when the event could be tied to one. */
  order: { id: string; display_id: number | null } | null
  /** The webhook route the event first came through. */
  route: WebhookRoute
  deliveries: number
  status: DeliveryStatus
  /** What the sync did (capture, record_check, cancel_order, ...), or why the event was not processed. */
  action: string | null
  processed_at: string | null
}

/** The views of the rows, each with the Medusa order its event's order_id leads to (one query for the page). */
export async function deliveryViews(container: MedusaContainer, rows: DeliveryRow[]): Promise<DeliveryView[]> {
  const sessionOf = new Map(rows.map((row) => [row.id, row.order_id ? sessionIdFromOrderId(row.order_id) : null]))
  const sessionIds = [
    ...new Set([...sessionOf.values()].filter((id): id is string => !!id && id.startsWith("payses_"))),
  ]
  const orders = new Map<string, { id: string; display_id: number | null }>()
  if (sessionIds.length > 0) {
    const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
      entity: "payment_session",
      fields: ["id", "payment_collection.order.id", "payment_collection.order.display_id"],
      filters: { id: sessionIds },
    })
    for (const session of data) {
      const order = session.payment_collection?.order
      if (order?.id) orders.set(session.id, { id: order.id, display_id: order.display_id ?? null })
    }
  }
  return rows.map((row) => {
    const sessionId = sessionOf.get(row.id)
    return {
      id: row.id,
      received_at: row.received_at.toISOString(),
      last_activity_at: row.updated_at.toISOString(),
      event_type: row.event_type,
      payment_id: row.payment_id,
      order_id: row.order_id,
      order: sessionId ? (orders.get(sessionId) ?? null) : null,
      route: row.route,
      deliveries: row.deliveries,
      status: row.status,
      action: row.outcome,
      processed_at: row.processed_at?.toISOString() ?? null,
    }
  })
}

import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { GuardedCollection } from "../rules/fulfillment-rules"
import type { CollectionOfOrder } from "../rules/placed-order-sessions"

export async function loadOrderCollections(container: MedusaContainer, orderId: string): Promise<GuardedCollection[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "payment_collections.status",
      "payment_collections.payment_sessions.provider_id",
      "payment_collections.payment_sessions.status",
      "payment_collections.payment_sessions.data",
    ],
    filters: { id: orderId },
  })
  return (data[0]?.payment_collections ?? []) as GuardedCollection[]
}

/** A payment collection with its order (if any) and sessions: for the store's session route, and read under the collection's lock before a reference is issued. */
export async function loadCollectionOfOrder(
  container: MedusaContainer,
  collectionId: string
): Promise<CollectionOfOrder> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_collection",
    fields: [
      "id",
      "order.id",
      "payment_sessions.id",
      "payment_sessions.provider_id",
      "payment_sessions.status",
      "payment_sessions.data",
    ],
    filters: { id: collectionId },
  })
  const row = data[0]
  return { orderId: row?.order?.id ?? null, sessions: row?.payment_sessions ?? [] }
}

/**
 * Whether the store may see the order: it exists and is not a draft order the shop owner is still preparing (a
 * draft is an order row with `is_draft_order`; Medusa's own `GET /store/orders/:id` does not find one either).
 */
export async function isPlacedOrder(container: MedusaContainer, orderId: string): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id", "is_draft_order"], filters: { id: orderId } })
  return !!data[0] && !data[0].is_draft_order
}

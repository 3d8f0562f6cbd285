import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { GuardedCollection } from "../../rules/fulfilment-rules"

export async function loadOrderCollections(container: MedusaContainer, orderId: string): Promise<GuardedCollection[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "payment_collections.status", "payment_collections.payment_sessions.provider_id", "payment_collections.payment_sessions.data"],
    filters: { id: orderId },
  })
  return ((data[0] as any)?.payment_collections ?? []) as GuardedCollection[]
}

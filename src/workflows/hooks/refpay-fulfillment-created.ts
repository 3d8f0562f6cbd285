import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createOrderFulfillmentWorkflow } from "@medusajs/medusa/core-flows"
import { assertRefpayOrderFulfillable } from "../../rules/fulfillment-rules"
import { loadOrderCollections } from "../../queries/order-collections"

// Backstop for fulfilments created by code that bypasses the admin route guard (src/api/medusa-routes/order-guards.ts): throwing here
// rolls the fulfilment back (Medusa cancels and unlinks it). The hook is not given the order, so it is found
// through the order-fulfillment link, which the workflow creates before this hook runs.
createOrderFulfillmentWorkflow.hooks.fulfillmentCreated(async ({ fulfillment }, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order_fulfillment",
    fields: ["order_id"],
    filters: { fulfillment_id: (fulfillment as { id: string }).id },
  })
  const orderId = (data[0] as { order_id?: string } | undefined)?.order_id
  if (!orderId) return
  assertRefpayOrderFulfillable(await loadOrderCollections(container, orderId))
})

import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { buildPaymentView, primarySession, type RefpayPaymentView } from "../rules/payment-view"
import { unpaidRefpayCollection } from "../rules/fulfillment-rules"
import { loadOrderCollections } from "./order-collections"
import { loadRefpaySession, refpaySessionIdsForOrder, type RefpaySessionState } from "./refpay-session-state"

export interface OrderPaymentView {
  view: RefpayPaymentView
  /** The session the view shows. */
  session: RefpaySessionState
  /** Every reference of the order, oldest first (the current one included): expired and renewed ones too. */
  history: RefpayPaymentView[]
  /** Every REFPAY session of the order with a reference. */
  sessions: RefpaySessionState[]
  /** The references the shown one replaced: the others of its payment collection, oldest first. */
  replaced: RefpayPaymentView[]
}

/**
 * The REFPAY payment of an order as the thank-you page and the admin widget show it, read from Medusa (no platform
 * call). Throws a 404 MedusaError when the order does not exist or was not paid with REFPAY.
 */
export async function loadOrderPaymentView(container: MedusaContainer, orderId: string): Promise<OrderPaymentView> {
  const sessionIds = await refpaySessionIdsForOrder(container, orderId)
  const states = (await Promise.all(sessionIds.map((id) => loadRefpaySession(container, id)))).filter(
    (state): state is RefpaySessionState => state !== null
  )
  const session = primarySession(states)
  const shown = session ? buildPaymentView(session) : null
  if (!session || !shown) throw await notFound(container, orderId)
  // The whole order, as the fulfilment guard sees it: a difference still waiting on its reference means do not ship.
  const view = unpaidRefpayCollection(await loadOrderCollections(container, orderId))
    ? { ...shown, do_not_ship: true }
    : shown
  const history = viewsOldestFirst(states)
  const replaced = viewsOldestFirst(
    states.filter((s) => s.id !== session.id && s.paymentCollectionId === session.paymentCollectionId)
  )
  return { view, session, history, sessions: states, replaced }
}

function viewsOldestFirst(states: RefpaySessionState[]): RefpayPaymentView[] {
  return states
    .map((state) => buildPaymentView(state))
    .filter((v): v is RefpayPaymentView => v !== null)
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
}

/** The REFPAY session ids of an order, or the same 404 as `loadOrderPaymentView`. */
export async function requireRefpaySessionIds(container: MedusaContainer, orderId: string): Promise<string[]> {
  const ids = await refpaySessionIdsForOrder(container, orderId)
  if (!ids.length) throw await notFound(container, orderId)
  return ids
}

async function notFound(container: MedusaContainer, orderId: string): Promise<MedusaError> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id"], filters: { id: orderId } })
  return data.length
    ? new MedusaError(
        MedusaError.Types.NOT_FOUND,
        `Order ${orderId} was not paid with REFPAY: it has no REFPAY payment reference`
      )
    : new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found`)
}

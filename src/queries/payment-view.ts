import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { buildPaymentView, primarySession, type PaymentViewSource, type RefpayPaymentView } from "../rules/payment-view"
import type { PlacedOrder } from "../rules/payment-instructions"
import { isRefpayProviderId } from "../rules/provider-ids"
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

/** The fields loadPlacedOrderPayment asks of an order. */
interface PlacedOrderRow {
  id: string
  display_id?: number | string | null
  email?: string | null
  status: string
  payment_collections?: ({
    id: string
    payment_sessions?: {
      id: string
      status: string
      provider_id: string
      data?: PaymentViewSource["data"] | null
      payment?: { captured_at?: string | null } | null
    }[]
  } | null)[]
}

/**
 * A placed order's REFPAY reference as its payment instructions e-mail shows it, with the order's number and e-mail,
 * in one query (every checkout sends it); null when the order has no REFPAY reference. The shown reference is the one
 * `loadOrderPaymentView` shows.
 */
export async function loadPlacedOrderPayment(
  container: MedusaContainer,
  orderId: string
): Promise<{ view: RefpayPaymentView; order: PlacedOrder } | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "display_id",
      "email",
      "status",
      "payment_collections.id",
      "payment_collections.payment_sessions.id",
      "payment_collections.payment_sessions.status",
      "payment_collections.payment_sessions.provider_id",
      "payment_collections.payment_sessions.data",
      "payment_collections.payment_sessions.payment.captured_at",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as PlacedOrderRow | undefined
  if (!order) return null
  const sources: PaymentViewSource[] = (order.payment_collections ?? []).flatMap((collection) =>
    (collection?.payment_sessions ?? [])
      .filter((session) => isRefpayProviderId(session.provider_id) && session.data?.refpay)
      .map((session) => ({
        id: session.id,
        paymentCollectionId: collection!.id,
        status: session.status,
        data: session.data!,
        payment: session.payment ? { capturedAt: session.payment.captured_at ?? null } : null,
        order: { id: order.id, status: order.status },
      }))
  )
  const shown = primarySession(sources)
  const view = shown && buildPaymentView(shown)
  return view
    ? { view, order: { id: order.id, display_id: order.display_id ?? null, email: order.email ?? null } }
    : null
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

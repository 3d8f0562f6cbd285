import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { CheckoutAddress } from "../rules/checkout-rules"
import { dueCents } from "../rules/money"
import { collectionState, liveReference, type CollectionAmounts, type CollectionState } from "../rules/outstanding"
import { buildPaymentView, primarySession, type RefpayPaymentView } from "../rules/payment-view"
import { loadRefpaySession, type RefpaySessionState } from "./refpay-session-state"
import { isRefpayProviderId } from "../rules/provider-ids"

export interface RequestCollection extends CollectionAmounts {
  /** Medusa's major units, as a payment session's amount is given. */
  amount: number
  currencyCode: string
}

/** A placed order as "Request payment by REFPAY" needs it: what it still owes, its collections, who pays. */
export interface PaymentRequestContext {
  order: {
    id: string
    displayId: number | string | null
    email: string | null
    status: string
    currencyCode: string
    billingAddress: CheckoutAddress | null
    shippingAddress: CheckoutAddress | null
  }
  /** What Medusa says the order still owes (its summary's pending difference), in cents; 0 when nothing is due. */
  outstandingCents: number
  collections: RequestCollection[]
  /** The REFPAY account to ask: the one the order already paid with, else the first on the order's region. */
  providerId: string | null
}

/** The fields `loadPaymentRequestContext` asks of an order. */
interface OrderRow {
  id: string
  display_id?: number | string | null
  email?: string | null
  status: string
  currency_code: string
  summary?: { pending_difference?: unknown; current_order_total?: unknown } | null
  billing_address?: CheckoutAddress | null
  shipping_address?: CheckoutAddress | null
  region?: { payment_providers?: { id: string }[] | null } | null
  payment_collections?: ({
    id: string
    status: string
    amount: unknown
    captured_amount?: unknown
    refunded_amount?: unknown
    currency_code: string
    created_at: string | Date
    payment_sessions?:
      | {
          id: string
          provider_id: string
          status: string
          data?: { refpay?: unknown; completion_started_at?: unknown } | null
        }[]
      | null
  } | null)[]
}

export async function loadPaymentRequestContext(
  container: MedusaContainer,
  orderId: string
): Promise<PaymentRequestContext> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "display_id",
      "email",
      "status",
      "currency_code",
      "summary",
      "billing_address.*",
      "shipping_address.*",
      "region.payment_providers.id",
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.amount",
      "payment_collections.captured_amount",
      "payment_collections.refunded_amount",
      "payment_collections.currency_code",
      "payment_collections.created_at",
      "payment_collections.payment_sessions.id",
      "payment_collections.payment_sessions.provider_id",
      "payment_collections.payment_sessions.status",
      "payment_collections.payment_sessions.data",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as OrderRow | undefined
  if (!order) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found`)
  const collections: RequestCollection[] = (order.payment_collections ?? [])
    .filter((c): c is NonNullable<typeof c> => !!c)
    .sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime())
    .map((c) => ({
      id: c.id,
      status: c.status,
      amount: Number(c.amount),
      amountCents: dueCents(Number(c.amount)),
      currencyCode: c.currency_code,
      sessions: (c.payment_sessions ?? []).map((s) => ({
        id: s.id,
        providerId: s.provider_id,
        status: s.status,
        hasReference: !!s.data?.refpay,
        issuing: !!s.data?.completion_started_at,
      })),
    }))
  // Medusa's pending difference trails a capture (its order transaction is written after the collection's captured
  // amount): what the collections hold caps it, so a request in that moment never opens a second collection.
  const netCaptured = (order.payment_collections ?? []).reduce(
    (sum, c) => sum + dueCents(Number(c?.captured_amount ?? 0)) - dueCents(Number(c?.refunded_amount ?? 0)),
    0
  )
  const owedByCollections = dueCents(Number(order.summary?.current_order_total ?? 0)) - netCaptured
  const pending =
    order.status === "canceled"
      ? 0
      : Math.min(dueCents(Number(order.summary?.pending_difference ?? 0)), Math.max(0, owedByCollections))
  return {
    order: {
      id: order.id,
      displayId: order.display_id ?? null,
      email: order.email ?? null,
      status: order.status,
      currencyCode: order.currency_code,
      billingAddress: order.billing_address ?? null,
      shippingAddress: order.shipping_address ?? null,
    },
    outstandingCents: pending,
    collections,
    providerId: refpayProviderOf(collections, order.region?.payment_providers ?? []),
  }
}

function refpayProviderOf(collections: RequestCollection[], regionProviders: { id: string }[]): string | null {
  const used = collections.flatMap((c) => c.sessions).filter((s) => isRefpayProviderId(s.providerId) && s.hasReference)
  if (used.length) return used[used.length - 1].providerId
  return (
    regionProviders
      .map((p) => p.id)
      .filter(isRefpayProviderId)
      .sort()[0] ?? null
  )
}

/** One payment collection of an order as the admin's widget and a storefront show it. */
export interface PaymentRequestCollectionView {
  id: string
  status: string
  state: CollectionState
  amount_cents: number
  currency_code: string
  /**
   * The collection's REFPAY reference (the paid one, else the one to pay, else the newest); null when none, or while
   * a new one is being issued (state `awaiting_refpay`: ask again in a moment).
   */
  refpay: RefpayPaymentView | null
}

export interface PaymentRequestsView {
  order_id: string
  /** A REFPAY account can take a payment of this order (the one it paid with, or one on its region). */
  refpay_available: boolean
  outstanding_cents: number
  collections: PaymentRequestCollectionView[]
}

/** The order's payment collections and what it still owes, read from Medusa (no platform call). */
export async function loadPaymentRequestsView(
  container: MedusaContainer,
  orderId: string
): Promise<PaymentRequestsView> {
  const context = await loadPaymentRequestContext(container, orderId)
  const collections = await Promise.all(
    context.collections.map(async (collection): Promise<PaymentRequestCollectionView> => {
      const ids = collection.sessions.filter((s) => isRefpayProviderId(s.providerId) && s.hasReference)
      const states = await Promise.all(ids.map((s) => loadRefpaySession(container, s.id)))
      // A reference being issued (its platform call under way) is not shown as the one it replaces.
      const issuing = liveReference(collection)?.hasReference === false
      const shown = issuing ? null : primarySession(states.filter((s): s is RefpaySessionState => !!s))
      return {
        id: collection.id,
        status: collection.status,
        state: collectionState(collection),
        amount_cents: collection.amountCents,
        currency_code: collection.currencyCode,
        refpay: shown && buildPaymentView(shown),
      }
    })
  )
  return {
    order_id: orderId,
    refpay_available: context.providerId !== null,
    outstanding_cents: context.outstandingCents,
    collections,
  }
}

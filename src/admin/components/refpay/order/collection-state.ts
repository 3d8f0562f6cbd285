import type { PaymentRequestsView } from "../../../../queries/order-payment-requests"
import type { CollectionState } from "../../../../rules/outstanding"
import type { StateColor } from "./payment-state"

/** The badge colour of a payment collection's state, as the panel's own badge colours a payment. */
export const COLLECTION_COLORS = {
  paid: "green",
  awaiting_refpay: "orange",
  requestable: "red",
  nothing_due: "grey",
} as const satisfies Record<CollectionState, StateColor>

/**
 * Whether the panel lists the order's payment collections: when the order has several (an edit, claim or exchange
 * added one), or when REFPAY can take a payment the panel does not offer yet. A single collection whose reference the
 * panel already shows (waiting, or renewable with "Issue a new reference" once expired) would only repeat it; an order
 * without a REFPAY reference is listed only when REFPAY can take what it owes, so an order another method is paying
 * (authorised, not captured yet), or one in a region without REFPAY, shows no REFPAY panel.
 */
export function listsPaymentRequests(requests: PaymentRequestsView, panelShowsReference: boolean): boolean {
  // No REFPAY account can take this order's payment (none used, none on its region): nothing to offer.
  if (!requests.refpay_available) return false
  if (panelShowsReference) return requests.collections.length > 1 || opensCollection(requests)
  const open = requests.collections.some((c) => c.state === "requestable")
  return requests.outstanding_cents > 0 && (open || opensCollection(requests))
}

/**
 * The order owes money and no collection of it is in play (an order created in the admin has none): the request,
 * made without a collection, opens one for what the order owes. The server's plan (`planPaymentRequest`) decides
 * the same way.
 */
export function opensCollection(requests: PaymentRequestsView): boolean {
  return (
    requests.outstanding_cents > 0 && requests.collections.every((c) => c.state === "paid" || c.status === "canceled")
  )
}

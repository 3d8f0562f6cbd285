import type { PaymentRequestCollectionView, PaymentRequestsView } from "../../../../../queries/order-payment-requests"
import { listsPaymentRequests, opensCollection } from "../collection-state"

function collection(state: PaymentRequestCollectionView["state"], status = "not_paid"): PaymentRequestCollectionView {
  return { id: `pay_col_${state}`, status, state, amount_cents: 1999, currency_code: "eur", refpay: null }
}

const paid = collection("paid", "completed")
const waiting = collection("awaiting_refpay", "awaiting")
const open = collection("requestable")
const cancelled = collection("nothing_due", "canceled")
/** Another method's payment, authorised and not captured yet. */
const authorisedElsewhere = collection("nothing_due", "authorized")

const requests = (outstanding: number, ...collections: PaymentRequestCollectionView[]): PaymentRequestsView => ({
  order_id: "order_1",
  refpay_available: true,
  outstanding_cents: outstanding,
  collections,
})

describe("listsPaymentRequests: when the order panel lists the order's payment collections", () => {
  it.each<[string, PaymentRequestsView, boolean]>([
    ["a REFPAY order paid at checkout, then edited to owe more", requests(1999, paid, open), true],
    ["the difference requested, still unpaid", requests(1999, paid, waiting), true],
    ["the difference paid", requests(0, paid, paid), true],
    ["owing more with no collection opened for it", requests(1999, paid), true],
    ["waiting on its checkout reference (the panel shows it)", requests(2989, waiting), false],
    ["its checkout reference expired (the panel offers a new one)", requests(2989, open), false],
    ["paid, nothing more due", requests(0, paid), false],
  ])("with a REFPAY reference on the panel: %s -> %s", (_, view, listed) => {
    expect(listsPaymentRequests(view, true)).toBe(listed)
  })

  it.each<[string, PaymentRequestsView, boolean]>([
    ["created in the admin, no collection yet", requests(2489), true],
    ["created in the admin, its collection open", requests(2489, open), true],
    ["owing more after another method's payment", requests(1999, paid, open), true],
    ["paid another way", requests(0, paid), false],
    ["paid another way and edited, the difference paid too", requests(0, paid, paid), false],
    ["another method's payment authorised, not captured", requests(2489, authorisedElsewhere), false],
    ["created in the admin in a region without REFPAY", { ...requests(2489), refpay_available: false }, false],
    ["cancelled", requests(0, cancelled), false],
  ])("without a REFPAY reference: %s -> %s", (_, view, listed) => {
    expect(listsPaymentRequests(view, false)).toBe(listed)
  })
})

describe("opensCollection: a request without a collection opens one for what the order owes", () => {
  it.each<[string, PaymentRequestsView, boolean]>([
    ["no collection at all", requests(2489), true],
    ["only paid or cancelled collections", requests(1999, paid, cancelled), true],
    ["an open collection to request on instead", requests(1999, paid, open), false],
    ["a reference already waiting", requests(1999, paid, waiting), false],
    ["another method's authorisation in play", requests(2489, authorisedElsewhere), false],
    ["nothing owed", requests(0, paid), false],
  ])("%s -> %s", (_, view, opens) => {
    expect(opensCollection(view)).toBe(opens)
  })
})

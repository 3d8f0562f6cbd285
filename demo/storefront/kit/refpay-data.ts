// The browser stand-in for the Next.js starter's server actions `@lib/data/refpay` (refpay.patch adds that file to
// the starter): same results, read straight from the shop with the demo's publishable key. The component itself is
// storefront-kit/nextjs-starter/RefpayPaymentInstructions.tsx, unchanged.

// The result types are the plugin's own (src/rules/payment-view.ts and src/queries/order-payment-requests.ts build
// what the store routes answer), imported for their types only: esbuild drops `import type` without resolving it, so
// the bundle (scripts/lib/demo-storefront.js) takes nothing from the plugin's sources. The starter's
// `@lib/data/refpay` (in refpay.patch) keeps its own copy: a storefront has the plugin's JavaScript, not its
// TypeScript sources.
import type { PreviousReferenceView, RefpayPaymentView } from "../../../src/rules/payment-view"
import type { PaymentRequestCollectionView, PaymentRequestsView } from "../../../src/queries/order-payment-requests"

export type { RefpayPaymentView }

/** A reference the current one replaced (after an expiry the shop may issue a new one). */
export type RefpayPreviousReference = PreviousReferenceView

/** One payment collection of the order, as `GET /store/refpay/orders/:id/payment-requests` lists it. */
export type RefpayPaymentCollection = PaymentRequestCollectionView

export type RefpayFailure = { ok: false; notFound: boolean; message: string }

export type RefpayPaymentResult =
  { ok: true; refpay: RefpayPaymentView; previous: RefpayPreviousReference[] } | RefpayFailure

export type RefpayPaymentRequestsResult = { ok: true; requests: PaymentRequestsView } | RefpayFailure

export type RefpayPaymentRequestResult = { ok: true; collection: RefpayPaymentCollection } | RefpayFailure

let config: Promise<{ shop_url: string; publishable_key: string }> | undefined

/** `GET` (or, given a body, `POST`) on the order's REFPAY store route `path`, with the demo's publishable key. */
async function callOrderRoute<T>(
  orderId: string,
  path: string,
  body?: object
): Promise<{ ok: true; body: T } | RefpayFailure> {
  config ??= fetch("/config.json").then((r) => r.json())
  const { shop_url, publishable_key } = await config
  const response = await fetch(`${shop_url}/store/refpay/orders/${encodeURIComponent(orderId)}${path}`, {
    method: body ? "POST" : "GET",
    headers: { "x-publishable-api-key": publishable_key, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const answer = await response.json().catch(() => ({}))
  if (response.ok) return { ok: true, body: answer }
  return { ok: false, notFound: response.status === 404, message: answer.message ?? `HTTP ${response.status}` }
}

export async function retrieveRefpayPayment(orderId: string): Promise<RefpayPaymentResult> {
  const answer = await callOrderRoute<{ refpay: RefpayPaymentView; previous_references?: RefpayPreviousReference[] }>(
    orderId,
    ""
  )
  if (!answer.ok) return answer
  return { ok: true, refpay: answer.body.refpay, previous: answer.body.previous_references ?? [] }
}

export async function retrieveRefpayPaymentRequests(orderId: string): Promise<RefpayPaymentRequestsResult> {
  const answer = await callOrderRoute<PaymentRequestsView>(orderId, "/payment-requests")
  return answer.ok ? { ok: true, requests: answer.body } : answer
}

export async function requestRefpayPayment(
  orderId: string,
  paymentCollectionId: string
): Promise<RefpayPaymentRequestResult> {
  const answer = await callOrderRoute<RefpayPaymentCollection>(orderId, "/payment-requests", {
    payment_collection_id: paymentCollectionId,
  })
  return answer.ok ? { ok: true, collection: answer.body } : answer
}

// The browser stand-in for the Next.js starter's server action `@lib/data/refpay` (refpay.patch adds that file to
// the starter): same result shape, read straight from the shop with the demo's publishable key. The component
// itself is storefront-kit/nextjs-starter/RefpayPaymentInstructions.tsx, unchanged.

// The result types are the plugin's own (src/rules/payment-view.ts builds what GET /store/refpay/orders/:id answers),
// imported for their types only: esbuild drops `import type` without resolving it, so the bundle
// (scripts/lib/demo-storefront.js) takes nothing from the plugin's sources. The starter's `@lib/data/refpay` (in
// refpay.patch) keeps its own copy: a storefront has the plugin's JavaScript, not its TypeScript sources.
import type { PreviousReferenceView, RefpayPaymentView } from "../../../src/rules/payment-view"

export type { RefpayPaymentView }

/** A reference the current one replaced (after an expiry the shop may issue a new one). */
export type RefpayPreviousReference = PreviousReferenceView

export type RefpayPaymentResult =
  | { ok: true; refpay: RefpayPaymentView; previous: RefpayPreviousReference[] }
  | { ok: false; notFound: boolean; message: string }

let config: Promise<{ shop_url: string; publishable_key: string }> | undefined

export async function retrieveRefpayPayment(orderId: string): Promise<RefpayPaymentResult> {
  config ??= fetch("/config.json").then((r) => r.json())
  const { shop_url, publishable_key } = await config
  const response = await fetch(`${shop_url}/store/refpay/orders/${encodeURIComponent(orderId)}`, {
    headers: { "x-publishable-api-key": publishable_key },
  })
  const body = await response.json().catch(() => ({}))
  if (response.ok) return { ok: true, refpay: body.refpay, previous: body.previous_references ?? [] }
  return { ok: false, notFound: response.status === 404, message: body.message ?? `HTTP ${response.status}` }
}

// The storefront components as a shop imports them: `medusa-payment-refpay/storefront`, resolved from
// demo/node_modules/medusa-payment-refpay (the packed tarball the demo installs, storefront-kit/dist inside), so the
// browser tests cover the build the package ships. The order page (app.js), the payment-link page and
// /kit.html?order=<id> mount them through `RefpayKit`. Bundled by scripts/lib/demo-storefront.js as /kit.bundle.js.
import { createRoot } from "react-dom/client"
import {
  createRefpayClient,
  RefpayPaymentCollection,
  RefpayPaymentInstructions,
  type RefpayClient,
  type RefpayLocale,
} from "medusa-payment-refpay/storefront"
import type { ReactNode } from "react"

let client: Promise<RefpayClient> | undefined

/** Plain fetch with the demo's publishable key (a shop with `@medusajs/js-sdk` passes `{ sdk }` instead). */
function refpayClient(): Promise<RefpayClient> {
  client ??= fetch("/config.json")
    .then((r) => r.json())
    .then((config) => createRefpayClient({ baseUrl: config.shop_url, publishableKey: config.publishable_key }))
  return client
}

function mountWith(element: HTMLElement, render: (client: RefpayClient) => ReactNode): () => void {
  const root = createRoot(element)
  let unmounted = false
  void refpayClient().then((c) => unmounted || root.render(render(c)))
  return () => {
    unmounted = true
    root.unmount()
  }
}

/** The order page's payment box for `orderId`; the returned function unmounts it (and stops its polling). */
export function mount(element: HTMLElement, orderId: string, locale: RefpayLocale = "pt"): () => void {
  return mountWith(element, (c) => <RefpayPaymentInstructions client={c} orderId={orderId} locale={locale} />)
}

/** The payment-link page (`/payment-collection/<id>`, where Medusa's admin "Copy payment link" points). */
export function mountPaymentCollection(element: HTMLElement, id: string, locale: RefpayLocale = "pt"): () => void {
  return mountWith(element, (c) => <RefpayPaymentCollection client={c} paymentCollectionId={id} locale={locale} />)
}

// The Next.js starter kit's confirmation component (storefront-kit/nextjs-starter), as shipped, for the demo
// storefront: the order page (app.js) and /kit.html?order=<id> both mount it with `RefpayKit.mount`, so the browser
// tests cover the same component shops install. Bundled by scripts/lib/demo-storefront.js as /kit.bundle.js.
import { createRoot } from "react-dom/client"
import RefpayPaymentInstructions from "../../../storefront-kit/nextjs-starter/RefpayPaymentInstructions"

/** Renders the payment box for `orderId` into `element`; the returned function unmounts it (and stops its polling). */
export function mount(element: HTMLElement, orderId: string): () => void {
  const root = createRoot(element)
  root.render(<RefpayPaymentInstructions orderId={orderId} />)
  return () => root.unmount()
}

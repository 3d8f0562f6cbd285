// /kit.html?order=<id>: the Next.js starter kit's confirmation component, as shipped, on the demo storefront, so the
// browser tests cover the same component shops install (storefront-kit/nextjs-starter).
import { createRoot } from "react-dom/client"
import RefpayPaymentInstructions from "../../../storefront-kit/nextjs-starter/RefpayPaymentInstructions"

const orderId = new URLSearchParams(location.search).get("order") ?? ""
createRoot(document.getElementById("root")!).render(<RefpayPaymentInstructions orderId={orderId} />)

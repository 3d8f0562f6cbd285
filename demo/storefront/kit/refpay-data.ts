// The browser stand-in for the Next.js starter's server action `@lib/data/refpay` (refpay.patch adds that file to
// the starter): same result shape, read straight from the shop with the demo's publishable key. The component
// itself is storefront-kit/nextjs-starter/RefpayPaymentInstructions.tsx, unchanged.

export type RefpayPaymentView = {
  order_id: string | null
  payment_session_id: string
  payment_id: string
  entity: string
  reference: string
  amount_cents: number
  amount_display: string
  currency: string
  status: "awaiting" | "paid" | "cancelled" | "failed"
  platform_status: string
  expires_at: string
  expired: boolean
  paid_after_cancellation: boolean
  do_not_ship: boolean
}

/** A reference the current one replaced (after an expiry the shop may issue a new one). */
export type RefpayPreviousReference = {
  entity: string
  reference: string
  status: string
  expired: boolean
  expires_at: string
}

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

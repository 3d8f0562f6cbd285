import type { AttentionKind } from "../../rules/attention-kinds"
import type { DeliveryStatus, NumbersQuery, NumbersView } from "./refpay-api"

const ATTENTION = ["refpay", "attention"] as const
const WEBHOOKS = ["refpay", "webhooks"] as const
const order = (orderId: string) => ["refpay", "order", orderId] as const

/**
 * The react-query keys of everything the admin reads from /admin/refpay, all under "refpay" so they never meet the
 * dashboard's own. A family's prefix (`attention`, `webhooks`, an `order`'s) is what a change invalidates at once.
 */
export const refpayKeys = {
  settings: (providerId: string | undefined) => ["refpay", "settings", providerId ?? null] as const,
  attention: ATTENTION,
  attentionCounts: () => [...ATTENTION, "counts"] as const,
  attentionList: (kind: AttentionKind, page: number) => [...ATTENTION, "list", kind, page] as const,
  webhooks: WEBHOOKS,
  webhookSetup: (providerId: string) => [...WEBHOOKS, "setup", providerId] as const,
  deliveries: (status: DeliveryStatus | "all", page: number) => [...WEBHOOKS, "deliveries", status, page] as const,
  numbers: (view: NumbersView, query: NumbersQuery) =>
    ["refpay", "numbers", view, query.providerId, query.from ?? null, query.to ?? null] as const,
  testEvent: (paymentId: string | null, providerId: string) => ["refpay", "test-event", paymentId, providerId] as const,
  order,
  /** Under the order's key: what changes the order's REFPAY payment invalidates both. */
  paymentRequests: (orderId: string) => [...order(orderId), "payment-requests"] as const,
}

import type { AttentionKind } from "../../rules/attention-kinds"
import type { ConnectionTestResult } from "../../api/admin/refpay/connection-test/connection-test"
import type { DeliveryView } from "../../api/admin/refpay/webhooks/deliveries/delivery-view"
import type { AdminPaymentRow } from "../../api/admin/refpay/payment-rows"
import type { TestEventProgress, TestEventResult } from "../../api/admin/refpay/webhooks/test-event/sandbox-test-event"
import type { RefpaySettingsView } from "../../api/admin/refpay/settings/settings-view"
import type { WebhookSetup, WebhookWarning } from "../../api/admin/refpay/webhooks/webhook-health"
import type { PaymentRequestCollectionView, PaymentRequestsView } from "../../queries/order-payment-requests"
import type { Conversion, Recovered } from "../../medusa-compat/medusa-tables/owner-numbers"
import type { Reconciliation } from "../../medusa-compat/medusa-tables/reconciliation"
import type { Period } from "../../rules/owner-numbers"
import type { RefpayPaymentView } from "../../rules/payment-view"
import type { WebhookRoute } from "../../rules/webhook"
import { sdk } from "./sdk"

/**
 * Every call the admin makes to the plugin's /admin/refpay routes: each path, query and body in one place, the
 * answers typed as the routes build them.
 */

export type AttentionCounts = Record<AttentionKind, number>

export interface RefpayAccount {
  provider_id: string
  account: string | null
  environment: "sandbox" | "production"
}

/** The order route's view: the payment view plus the last status check. */
export type AdminRefpayView = RefpayPaymentView & {
  last_check?: { outcome: string | null; checked_at: string | null; failures: number } | null
  /** Every reference of the order, oldest first. */
  history?: RefpayPaymentView[]
}

/** "Request payment by REFPAY"'s answer: the collection asked for, with its reference (`issued` false: it was waiting). */
export type RequestedPayment = PaymentRequestCollectionView & { payment_collection_id: string; issued: boolean }

export interface WebhooksView extends WebhookSetup {
  last_delivery_at: string | null
  deliveries_recorded: number
  waiting_payments: number
  refusals: {
    route: WebhookRoute
    reason: string
    refused_count: number
    first_refused_at: string
    last_refused_at: string
  }[]
  /** Authentic deliveries that were not usable REFPAY events: acknowledged (200), counted, ignored. */
  malformed: {
    route: WebhookRoute
    reason: string
    received_count: number
    first_received_at: string
    last_received_at: string
  }[]
  warnings: WebhookWarning[]
  test_event_available: boolean
}

export type DeliveryStatus = DeliveryView["status"]
export type TestEventPoll = TestEventProgress & { arrived: boolean; deliveries: DeliveryView[] }
export type PaymentPage = { payments: AdminPaymentRow[]; count: number }
export type DeliveryPage = { deliveries: DeliveryView[]; count: number }
export type SearchQuery = { reference: string; entity?: string; limit: number }

type Query = Record<string, string | number | undefined>

/** The owner's numbers asked for: an account and a period (the last 30 days when from and to are left out). */
export type NumbersQuery = { providerId: string; from?: string; to?: string }
export interface NumbersViews {
  conversion: Conversion
  recovered: Recovered
  reconciliation: Reconciliation
}
export type NumbersView = keyof NumbersViews
export type NumbersAnswer<V extends NumbersView> = { provider_id: string; period: Period } & Pick<NumbersViews, V>
const numbersQuery = (query: NumbersQuery) => ({ provider_id: query.providerId, from: query.from, to: query.to })

/** A GET; empty filters are left out of the query string, as the routes expect them absent. */
function get<T>(path: string, query: Query = {}): Promise<T> {
  const present = Object.entries(query).filter(([, value]) => value !== undefined && value !== "")
  return sdk.client.fetch<T>(path, { method: "GET", query: Object.fromEntries(present) })
}

/** A POST with a JSON body (`{}` when there is nothing to send); undefined fields are left out. */
function post<T>(path: string, body: Record<string, unknown> = {}): Promise<T> {
  const present = Object.entries(body).filter(([, value]) => value !== undefined)
  return sdk.client.fetch<T>(path, { method: "POST", body: Object.fromEntries(present) })
}

const orderPath = (orderId: string) => `/admin/refpay/orders/${encodeURIComponent(orderId)}`

export const refpayApi = {
  numbers: <V extends NumbersView>(view: V, query: NumbersQuery) =>
    get<NumbersAnswer<V>>(`/admin/refpay/numbers/${view}`, numbersQuery(query)),
  /** The accountant's CSV of the period, as a file (the route names it). */
  numbersCsv: async (query: NumbersQuery): Promise<{ blob: Blob; fileName: string }> => {
    const present = Object.entries(numbersQuery(query)).filter(([, value]) => value !== undefined && value !== "")
    const response = await sdk.client.fetch<Response>("/admin/refpay/numbers/export", {
      method: "GET",
      headers: { accept: "text/csv" },
      query: Object.fromEntries(present),
    })
    const disposition = response.headers.get("content-disposition") ?? ""
    return { blob: await response.blob(), fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? "refpay.csv" }
  },

  settings: (providerId: string | undefined) =>
    get<{ settings: RefpaySettingsView; accounts: RefpayAccount[] }>("/admin/refpay/settings", {
      provider_id: providerId,
    }),
  testConnection: (providerId: string) =>
    post<{ connection: ConnectionTestResult }>("/admin/refpay/connection-test", { provider_id: providerId }),

  attentionCounts: () => get<{ counts: AttentionCounts }>("/admin/refpay/attention"),
  attentionList: (kind: AttentionKind, limit: number, offset: number) =>
    get<PaymentPage>(`/admin/refpay/attention/${kind}`, { limit, offset }),
  refundLatePayment: (paymentSessionId: string) =>
    post(`/admin/refpay/late-payments/${encodeURIComponent(paymentSessionId)}/refund`),

  search: (query: SearchQuery) => get<PaymentPage>("/admin/refpay/search", query),

  webhooks: (providerId: string) =>
    get<{ webhooks: WebhooksView }>("/admin/refpay/webhooks", { provider_id: providerId }),
  deliveries: (status: DeliveryStatus | undefined, limit: number, offset: number) =>
    get<DeliveryPage>("/admin/refpay/webhooks/deliveries", { status, limit, offset }),
  sendTestEvent: (providerId: string) =>
    post<{ test_event: TestEventResult }>("/admin/refpay/webhooks/test-event", { provider_id: providerId }),
  testEventProgress: (paymentId: string, providerId: string) =>
    get<{ test_event: TestEventPoll }>(`/admin/refpay/webhooks/test-event/${encodeURIComponent(paymentId)}`, {
      provider_id: providerId,
    }),

  order: (orderId: string) => get<{ refpay: AdminRefpayView }>(orderPath(orderId)),
  checkOrderNow: (orderId: string) => post<{ refpay: AdminRefpayView }>(`${orderPath(orderId)}/sync`),
  issueNewReference: (orderId: string) => post<{ refpay: AdminRefpayView }>(`${orderPath(orderId)}/renew`),
  paymentRequests: (orderId: string) => get<PaymentRequestsView>(`${orderPath(orderId)}/payment-requests`),
  /** Without a collection, the server picks the order's open one, or opens one for what the order owes. */
  requestPayment: (orderId: string, paymentCollectionId: string | undefined) =>
    post<RequestedPayment>(`${orderPath(orderId)}/payment-requests`, { payment_collection_id: paymentCollectionId }),
}

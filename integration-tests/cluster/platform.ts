// What the platform saw and holds, read from the sandbox's controls: its payments, its request log (creations and
// status reads) and its webhook log.
import { request } from "undici"

export const CREATE_PATH = "/dpm/payments-gwproxy/v2/payments"
export const CANCEL_PATH = "/dpm/payments-gwproxy/v2/payments/cancel"
export const STATUS_PATH = "/dpm/hub-payment-info/v1/payments/info/"

export interface PlatformPayment {
  payment_id: string
  order_id: string
  status: string
  amount: string
  refunded_amount: string
  received_at: string
  updated_at: string
  additional_data: { entity: string; reference: string }
  records: { type: string; amount: string; status: string; occurred_at: string }[]
}

export interface LoggedRequest {
  at: string
  method: string
  path: string
  status: number
  duration_ms: number
  idempotency_key?: string
}

export interface WebhookLogEntry {
  event_id: string
  event_type: string
  payment_id: string
  state: string
  deliveries: { delivery: number; kind: string; state: string; attempts: number }[]
  attempts: { status?: number; error?: string }[]
}

export class Platform {
  constructor(readonly url: string) {}

  async control<T = any>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
    const answer = await request(`${this.url}/__sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await answer.body.text()
    if (answer.statusCode >= 400) throw new Error(`sandbox ${method} ${path}: ${answer.statusCode} ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }

  async payments(): Promise<PlatformPayment[]> {
    return (await this.control<{ payments: PlatformPayment[] }>("GET", "/payments")).payments
  }

  async requests(path: string, method?: string): Promise<LoggedRequest[]> {
    const query = new URLSearchParams({ path, ...(method ? { method } : {}) })
    return (await this.control<{ requests: LoggedRequest[] }>("GET", `/requests?${query}`)).requests
  }

  clearRequests(): Promise<unknown> {
    return this.control("DELETE", "/requests")
  }

  /** Creation calls (the cancel path shares the prefix: exact path only). */
  async creations(): Promise<LoggedRequest[]> {
    return (await this.requests(CREATE_PATH, "POST")).filter((r) => r.path === CREATE_PATH)
  }

  async cancellations(): Promise<LoggedRequest[]> {
    return (await this.requests(CANCEL_PATH, "POST")).filter((r) => r.path === CANCEL_PATH)
  }

  /** Status reads, each with the payment it read, when it was answered (`atMs`) and when it arrived. */
  async statusReads(): Promise<(LoggedRequest & { payment_id: string; atMs: number; arrivedMs: number })[]> {
    return (await this.requests(STATUS_PATH, "GET")).map((r) => ({
      ...r,
      payment_id: decodeURIComponent(r.path.slice(STATUS_PATH.length)),
      atMs: Date.parse(r.at),
      arrivedMs: Date.parse(r.at) - (r.duration_ms ?? 0),
    }))
  }

  async webhooks(): Promise<WebhookLogEntry[]> {
    return (await this.control<{ events: WebhookLogEntry[] }>("GET", "/webhooks")).events
  }

  pay(paymentId: string): Promise<unknown> {
    return this.control("POST", `/payments/${encodeURIComponent(paymentId)}/pay`)
  }

  configureWebhooks(change: { url?: string | null; retries?: number; backoff_ms?: number }): Promise<unknown> {
    return this.control("POST", "/webhooks/config", change)
  }

  webhookFault(fault: {
    mode: "drop" | "duplicate" | "delay"
    count: number
    copies?: number
    delay_ms?: number
  }): Promise<unknown> {
    return this.control("POST", "/webhooks/faults", fault)
  }

  /** Sends a recorded event again, as a platform's later delivery (a new delivery; faults do not apply). */
  redeliver(eventId: string): Promise<unknown> {
    return this.control("POST", `/webhooks/${encodeURIComponent(eventId)}/redeliver`)
  }

  clearWebhookFaults(): Promise<unknown> {
    return this.control("DELETE", "/webhooks/faults")
  }
}

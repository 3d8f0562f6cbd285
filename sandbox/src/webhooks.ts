import { randomUUID } from "node:crypto"
import http from "node:http"
import https from "node:https"
import type { SandboxClock } from "./clock"
import type { WebhookAuthMode } from "./options"
import { TimerGroup } from "./timers"

export type EventType = "PENDING_TRANSACTIONS" | "APPROVED_TRANSACTIONS" | "CANCELLED_TRANSACTIONS"

/** The webhook body of the contract page; `amount` is integer cents. */
export interface WebhookPayload {
  event_id: string
  event_type: EventType
  payment_id: string
  order_id: string
  status: string
  amount: number
  currency: string
  occurred_at: string
}

export interface WebhookConfig {
  url?: string
  secret?: string
  auth: WebhookAuthMode
  retries: number
  backoffMs: number
  /** How long an attempt waits for an answer before it counts as failed (error "TIMEOUT"). */
  timeoutMs: number
}

export interface DeliveryAttempt {
  event_id: string
  delivery: number
  attempt: number
  at: string
  status?: number
  error?: string
  duration_ms: number
}

type DeliveryState = "pending" | "delivered" | "failed" | "dropped" | "abandoned"

/** One send of an event (with its retries); duplicates and redeliveries are further deliveries. */
interface Delivery {
  delivery: number
  kind: "original" | "duplicate" | "redelivery"
  state: DeliveryState
  attempts: number
}

interface EventEntry {
  payload: WebhookPayload
  body: string
  deliveries: Delivery[]
  attempts: DeliveryAttempt[]
}

export type WebhookFaultMode = "drop" | "duplicate" | "delay"

export interface WebhookFault {
  mode: WebhookFaultMode
  remaining: number
  /** duplicate: how many times the event is sent in all. */
  copies: number
  /** delay: wait before the first attempt. */
  delayMs: number
}

const MAX_EVENTS = 20_000

/**
 * Records every event and, when a URL is configured, delivers it asynchronously (never inside the API
 * call that caused it), retrying non-2xx answers and connection errors with exponential backoff.
 */
export class WebhookDispatcher {
  private config: WebhookConfig
  private readonly events = new Map<string, EventEntry>()
  private faults: WebhookFault[] = []
  private readonly timers = new TimerGroup()
  private readonly inFlight = new Set<http.ClientRequest>()
  private readonly httpAgent = new http.Agent({ keepAlive: true })
  private readonly httpsAgent = new https.Agent({ keepAlive: true })
  /** Bumped by reset(): callbacks of an older generation are ignored. */
  private generation = 0

  constructor(
    private readonly initial: WebhookConfig,
    private readonly clock: SandboxClock,
    private readonly log: (line: string) => void
  ) {
    this.config = { ...initial }
  }

  emit(
    eventType: EventType,
    p: { paymentId: string; orderId: string; status: string; amount: number; currency: string },
    at: number
  ): WebhookPayload {
    const payload: WebhookPayload = {
      event_id: randomUUID(),
      event_type: eventType,
      payment_id: p.paymentId,
      order_id: p.orderId,
      status: p.status,
      amount: p.amount,
      currency: p.currency,
      occurred_at: new Date(at).toISOString(),
    }
    const entry: EventEntry = { payload, body: JSON.stringify(payload), deliveries: [], attempts: [] }
    this.store(entry)
    // Without a URL the event is only recorded; faults are kept for events that are really sent.
    if (this.config.url) this.dispatch(entry)
    return payload
  }

  /** Sends one recorded event again (a new delivery with its own retries); faults do not apply. */
  redeliver(eventId: string): { ok: true; delivery: number } | { ok: false; reason: "NOT_FOUND" | "NO_URL" } {
    const entry = this.events.get(eventId)
    if (!entry) return { ok: false, reason: "NOT_FOUND" }
    if (!this.config.url) return { ok: false, reason: "NO_URL" }
    return { ok: true, delivery: this.startDelivery(entry, "redelivery", 0).delivery }
  }

  configure(change: Partial<WebhookConfig>): void {
    this.config = { ...this.config, ...change }
  }

  addFault(fault: WebhookFault): void {
    this.faults.push(fault)
  }

  clearFaults(): void {
    this.faults = []
  }

  view(filter: { eventType?: string; paymentId?: string } = {}): unknown {
    const events = [...this.events.values()]
      .filter((e) => !filter.eventType || e.payload.event_type === filter.eventType)
      .filter((e) => !filter.paymentId || e.payload.payment_id === filter.paymentId)
      .map((e) => ({
        event_id: e.payload.event_id,
        event_type: e.payload.event_type,
        payment_id: e.payload.payment_id,
        state: e.deliveries.length === 0 ? "recorded" : (e.deliveries[e.deliveries.length - 1] as Delivery).state,
        payload: e.payload,
        deliveries: e.deliveries,
        attempts: e.attempts,
      }))
    return { config: this.configView(), faults: this.faultsView(), count: events.length, events }
  }

  /** The secret itself is never shown. */
  configView(): unknown {
    const c = this.config
    return {
      url: c.url ?? null,
      auth: c.auth,
      secret_set: c.secret !== undefined,
      retries: c.retries,
      backoff_ms: c.backoffMs,
      timeout_ms: c.timeoutMs,
    }
  }

  faultsView(): unknown[] {
    return this.faults.map((f) => ({ mode: f.mode, remaining: f.remaining, copies: f.copies, delay_ms: f.delayMs }))
  }

  /** Back to start-up configuration, nothing pending, nothing recorded. */
  reset(): void {
    this.stopAll()
    this.events.clear()
    this.faults = []
    this.config = { ...this.initial }
  }

  close(): void {
    this.stopAll()
    this.httpAgent.destroy()
    this.httpsAgent.destroy()
  }

  private stopAll(): void {
    this.generation++
    this.timers.clear()
    for (const req of this.inFlight) req.destroy()
    this.inFlight.clear()
  }

  private store(entry: EventEntry): void {
    if (this.events.size >= MAX_EVENTS) {
      const oldest = this.events.keys().next().value
      if (oldest !== undefined) this.events.delete(oldest)
    }
    this.events.set(entry.payload.event_id, entry)
  }

  private takeFault(): WebhookFault | undefined {
    const fault = this.faults[0]
    if (!fault) return undefined
    if (--fault.remaining <= 0) this.faults.shift()
    return fault
  }

  private dispatch(entry: EventEntry): void {
    const fault = this.takeFault()
    if (fault?.mode === "drop") {
      entry.deliveries.push({ delivery: 1, kind: "original", state: "dropped", attempts: 0 })
      return
    }
    const copies = fault?.mode === "duplicate" ? fault.copies : 1
    const delay = fault?.mode === "delay" ? fault.delayMs : 0
    for (let i = 0; i < copies; i++) this.startDelivery(entry, i === 0 ? "original" : "duplicate", delay)
  }

  private startDelivery(entry: EventEntry, kind: Delivery["kind"], delayMs: number): Delivery {
    const delivery: Delivery = { delivery: entry.deliveries.length + 1, kind, state: "pending", attempts: 0 }
    entry.deliveries.push(delivery)
    const generation = this.generation
    this.timers.after(delayMs, () => this.attempt(entry, delivery, generation))
    return delivery
  }

  private attempt(entry: EventEntry, delivery: Delivery, generation: number): void {
    if (generation !== this.generation) return
    const config = this.config
    if (!config.url) {
      delivery.state = "abandoned"
      return
    }
    const number = ++delivery.attempts
    const startedAt = this.clock.now()
    const started = performance.now()
    this.send(config, entry.body, (status, error) => {
      if (generation !== this.generation) return
      const attempt: DeliveryAttempt = {
        event_id: entry.payload.event_id,
        delivery: delivery.delivery,
        attempt: number,
        at: new Date(startedAt).toISOString(),
        duration_ms: Math.round(performance.now() - started),
      }
      if (status !== undefined) attempt.status = status
      if (error !== undefined) attempt.error = error
      entry.attempts.push(attempt)
      this.afterAttempt(entry, delivery, attempt, config, generation)
    })
  }

  private afterAttempt(
    entry: EventEntry,
    delivery: Delivery,
    attempt: DeliveryAttempt,
    config: WebhookConfig,
    generation: number
  ): void {
    if (attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300) {
      delivery.state = "delivered"
      return
    }
    const outcome = attempt.status !== undefined ? `HTTP ${attempt.status}` : attempt.error
    if (attempt.attempt > config.retries) {
      delivery.state = "failed"
      this.log(`refpay-sandbox: webhook ${attempt.event_id} failed after ${attempt.attempt} attempts (${outcome})`)
      return
    }
    const wait = config.backoffMs * 2 ** (attempt.attempt - 1)
    this.log(
      `refpay-sandbox: webhook ${attempt.event_id} attempt ${attempt.attempt} failed (${outcome}); retry in ${wait} ms`
    )
    this.timers.after(wait, () => this.attempt(entry, delivery, generation))
  }

  private send(config: WebhookConfig, body: string, done: (status?: number, error?: string) => void): void {
    let finished = false
    const finish = (status?: number, error?: string) => {
      if (finished) return
      finished = true
      this.inFlight.delete(req)
      done(status, error)
    }
    const url = new URL(config.url as string)
    const secure = url.protocol === "https:"
    const req = (secure ? https : http).request(url, {
      method: "POST",
      agent: secure ? this.httpsAgent : this.httpAgent,
      timeout: config.timeoutMs,
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "user-agent": "refpay-sandbox",
        ...authHeader(config),
      },
    })
    this.inFlight.add(req)
    req.on("response", (res) => {
      res.resume()
      finish(res.statusCode)
    })
    req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })))
    req.on("error", (err: NodeJS.ErrnoException) => finish(undefined, err.code ?? err.message))
    req.end(body)
  }
}

function authHeader(config: WebhookConfig): Record<string, string> {
  if (config.secret === undefined) return {}
  if (config.auth === "basic") {
    return { authorization: `Basic ${Buffer.from(`refpay:${config.secret}`).toString("base64")}` }
  }
  return { "x-refpay-webhook-secret": config.secret }
}

import type { RequestContext } from "./context"
import { paymentsError, type FieldProblem } from "./errors"
import { faultView, parseFault } from "./faults"
import { webhookUrl as checkWebhookUrl } from "./options"
import type { Payment } from "./payment-store"
import { rawView } from "./payment-views"
import { json, type Reply } from "./reply"
import { isPlainObject, parseJson } from "./validation"
import type { WebhookConfig } from "./webhooks"

/**
 * The `/__sandbox` control API of the contract page: drive payments, the clock, faults and webhooks, and
 * read what clients did. Unauthenticated, so only loopback callers are served (checked by the server).
 */
type ControlHandler = (ctx: RequestContext, params: string[]) => Reply
type Route = { segments: string[]; methods: Record<string, ControlHandler> }

const ROUTES: Route[] = [
  route("payments", { GET: listPayments }),
  route("payments/:id", { GET: getPayment, DELETE: forgetPayment }),
  route("payments/:id/pay", { POST: payPayment }),
  route("payments/:id/cancel", { POST: cancelPayment }),
  route("payments/:id/expire", { POST: expirePayment }),
  route("clock", { GET: getClock, POST: moveClock }),
  route("faults", { GET: listFaults, POST: addFault, DELETE: clearFaults }),
  route("webhooks", { GET: listWebhooks }),
  route("webhooks/config", { GET: getWebhookConfig, POST: configureWebhooks }),
  route("webhooks/faults", { GET: listWebhookFaults, POST: addWebhookFault, DELETE: clearWebhookFaults }),
  route("webhooks/:id/redeliver", { POST: redeliver }),
  route("requests", { GET: listRequests, DELETE: clearRequests }),
  route("tokens", { GET: tokenCounts }),
  route("next-reference", { POST: nextReference }),
  route("reset", { POST: reset }),
]

function route(pattern: string, methods: Record<string, ControlHandler>): Route {
  return { segments: pattern.split("/"), methods }
}

/** Dispatches a path below /__sandbox/; 404 or 405 (with Allow) when nothing fits. */
export function handleControl(ctx: RequestContext): Reply {
  const parts = ctx.path.slice("/__sandbox/".length).split("/").map(safeDecode)
  for (const r of ROUTES) {
    const params = match(r.segments, parts)
    if (!params) continue
    const handler = r.methods[ctx.req.method ?? "GET"]
    if (!handler) {
      return { ...paymentsError(405, "METHOD_NOT_ALLOWED", `${ctx.req.method} is not allowed here`), headers: { allow: Object.keys(r.methods).join(", ") } }
    }
    return handler(ctx, params)
  }
  return paymentsError(404, "NOT_FOUND", `No sandbox control at ${ctx.path}`)
}

function match(pattern: string[], parts: string[]): string[] | undefined {
  if (pattern.length !== parts.length) return undefined
  const params: string[] = []
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string
    if (p.startsWith(":")) params.push(parts[i] as string)
    else if (p !== parts[i]) return undefined
  }
  return params
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/* ---------- request helpers ---------- */

type Body = { ok: true; value: Record<string, unknown> } | { ok: false; reply: Reply }

/** Controls take an optional JSON object; an empty body is `{}` (curl-friendly, no content type needed). */
function body(ctx: RequestContext): Body {
  if (ctx.body.length === 0) return { ok: true, value: {} }
  const parsed = parseJson(ctx.body)
  if (!parsed.ok || !isPlainObject(parsed.value)) {
    return { ok: false, reply: bad([{ field: "body", message: "must be a JSON object" }]) }
  }
  return { ok: true, value: parsed.value }
}

function bad(details: FieldProblem[]): Reply {
  return paymentsError(400, "INVALID_REQUEST", "Invalid sandbox control request", details)
}

function query(ctx: RequestContext): URLSearchParams {
  return new URLSearchParams(ctx.query)
}

function unknownKeys(value: Record<string, unknown>, allowed: string[]): FieldProblem[] {
  return Object.keys(value)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ field: k, message: "is not allowed" }))
}

function isInt(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
}

/* ---------- payments ---------- */

function findPayment(ctx: RequestContext, id: string): Payment | undefined {
  const seller = query(ctx).get("seller_id")
  return ctx.state.payments.find(id, seller ? [seller] : ctx.state.sellerIds)
}

function paymentNotFound(): Reply {
  return paymentsError(404, "PAYMENT_NOT_FOUND", "Payment not found")
}

function listPayments(ctx: RequestContext): Reply {
  const { state } = ctx
  state.lifecycle.sweep()
  const q = query(ctx)
  const status = q.get("status")
  const orderId = q.get("order_id")
  const payments = state.payments
    .all()
    .filter((p) => (!status || p.status === status) && (!orderId || p.orderId === orderId))
    .map(rawView)
  return json(200, { count: payments.length, payments })
}

function getPayment(ctx: RequestContext, [id]: string[]): Reply {
  const payment = findPayment(ctx, id as string)
  if (!payment) return paymentNotFound()
  ctx.state.lifecycle.expireIfDue(payment)
  return json(200, rawView(payment))
}

/** The platform forgets a payment: later reads, pays, cancels and refunds of it get 404 PAYMENT_NOT_FOUND. */
function forgetPayment(ctx: RequestContext, [id]: string[]): Reply {
  const payment = findPayment(ctx, id as string)
  if (!payment) return paymentNotFound()
  ctx.state.payments.delete(payment)
  return json(200, { forgotten: true, payment_id: payment.paymentId, seller_id: payment.sellerId, status: payment.status })
}

function payPayment(ctx: RequestContext, [id]: string[]): Reply {
  const b = body(ctx)
  if (!b.ok) return b.reply
  const problems = unknownKeys(b.value, ["force"])
  if (b.value.force !== undefined && typeof b.value.force !== "boolean") problems.push({ field: "force", message: "must be a boolean" })
  if (problems.length > 0) return bad(problems)
  const payment = findPayment(ctx, id as string)
  if (!payment) return paymentNotFound()
  const result = ctx.state.lifecycle.pay(payment, b.value.force === true)
  if (result === "already-approved") return paymentsError(409, "PAYMENT_ALREADY_APPROVED", "The payment is already approved")
  if (result === "not-payable") {
    return paymentsError(409, "PAYMENT_NOT_PAYABLE", `The payment is ${payment.status.toLowerCase()}; send {"force": true} for a late settlement`)
  }
  return json(200, rawView(payment))
}

function cancelPayment(ctx: RequestContext, [id]: string[]): Reply {
  return whileWaiting(ctx, id as string, (p) => ctx.state.lifecycle.cancel(p))
}

function expirePayment(ctx: RequestContext, [id]: string[]): Reply {
  return whileWaiting(ctx, id as string, (p) => ctx.state.lifecycle.expire(p))
}

/** Control cancel and expire: only a WAITING payment moves; anything else is a 409. */
function whileWaiting(ctx: RequestContext, id: string, change: (p: Payment) => void): Reply {
  const payment = findPayment(ctx, id)
  if (!payment) return paymentNotFound()
  ctx.state.lifecycle.expireIfDue(payment)
  if (payment.status !== "WAITING") {
    return paymentsError(409, "PAYMENT_NOT_WAITING", `The payment is ${payment.status.toLowerCase()}, not waiting`)
  }
  change(payment)
  return json(200, rawView(payment))
}

/* ---------- clock ---------- */

function clockView(ctx: RequestContext, expired?: number): Reply {
  const { clock } = ctx.state
  const view: Record<string, unknown> = { now: clock.nowIso(), offset_ms: clock.offset }
  if (expired !== undefined) view.expired = expired
  return json(200, view)
}

function getClock(ctx: RequestContext): Reply {
  return clockView(ctx)
}

/** Exactly one of advance_ms, advance_days or set (ISO 8601 or epoch ms); overdue references expire at once. */
function moveClock(ctx: RequestContext): Reply {
  const b = body(ctx)
  if (!b.ok) return b.reply
  const v = b.value
  const problems = unknownKeys(v, ["advance_ms", "advance_days", "set"])
  const given = ["advance_ms", "advance_days", "set"].filter((k) => v[k] !== undefined)
  if (given.length !== 1) problems.push({ field: "body", message: "exactly one of advance_ms, advance_days or set is required" })
  if (v.advance_ms !== undefined && !(typeof v.advance_ms === "number" && Number.isFinite(v.advance_ms))) {
    problems.push({ field: "advance_ms", message: "must be a number" })
  }
  if (v.advance_days !== undefined && !(typeof v.advance_days === "number" && Number.isFinite(v.advance_days))) {
    problems.push({ field: "advance_days", message: "must be a number" })
  }
  const target = v.set === undefined ? undefined : typeof v.set === "number" ? v.set : typeof v.set === "string" ? Date.parse(v.set) : NaN
  if (target !== undefined && !Number.isFinite(target)) problems.push({ field: "set", message: "must be an ISO 8601 time or epoch ms" })
  if (problems.length > 0) return bad(problems)

  const { clock } = ctx.state
  if (typeof v.advance_ms === "number") clock.advance(v.advance_ms)
  else if (typeof v.advance_days === "number") clock.advance(v.advance_days * 86_400_000)
  else clock.set(target as number)
  return clockView(ctx, ctx.state.lifecycle.sweep())
}

/* ---------- faults ---------- */

function listFaults(ctx: RequestContext): Reply {
  const faults = ctx.state.faults.list()
  return json(200, { count: faults.length, faults })
}

function addFault(ctx: RequestContext): Reply {
  const b = body(ctx)
  if (!b.ok) return b.reply
  const parsed = parseFault(b.value)
  if (!parsed.ok) return bad(parsed.problems)
  return json(201, faultView(ctx.state.faults.add(parsed.spec)))
}

function clearFaults(ctx: RequestContext): Reply {
  ctx.state.faults.clear()
  return json(200, { count: 0, faults: [] })
}

/* ---------- webhooks ---------- */

function listWebhooks(ctx: RequestContext): Reply {
  const q = query(ctx)
  return json(200, ctx.state.webhooks.view({ eventType: q.get("event_type") ?? undefined, paymentId: q.get("payment_id") ?? undefined }))
}

function getWebhookConfig(ctx: RequestContext): Reply {
  return json(200, ctx.state.webhooks.configView())
}

/** Partial update; `url: null` or `secret: null` removes them. */
function configureWebhooks(ctx: RequestContext): Reply {
  const b = body(ctx)
  if (!b.ok) return b.reply
  const v = b.value
  const problems = unknownKeys(v, ["url", "secret", "auth", "retries", "backoff_ms"])
  const change: Partial<WebhookConfig> = {}
  if (v.url !== undefined) {
    if (v.url === null) change.url = undefined
    else if (typeof v.url === "string" && isHttpUrl(v.url)) change.url = v.url
    else problems.push({ field: "url", message: "must be an absolute http(s) URL or null" })
  }
  if (v.secret !== undefined) {
    if (v.secret === null) change.secret = undefined
    else if (typeof v.secret === "string" && v.secret.length > 0) change.secret = v.secret
    else problems.push({ field: "secret", message: "must be a non-empty string or null" })
  }
  if (v.auth !== undefined) {
    if (v.auth === "header" || v.auth === "basic") change.auth = v.auth
    else problems.push({ field: "auth", message: 'must be "header" or "basic"' })
  }
  if (v.retries !== undefined) {
    if (isInt(v.retries, 0, 100)) change.retries = v.retries as number
    else problems.push({ field: "retries", message: "must be an integer from 0 to 100" })
  }
  if (v.backoff_ms !== undefined) {
    if (isInt(v.backoff_ms, 0, 3_600_000)) change.backoffMs = v.backoff_ms as number
    else problems.push({ field: "backoff_ms", message: "must be an integer from 0 to 3600000" })
  }
  if (problems.length > 0) return bad(problems)
  ctx.state.webhooks.configure(change)
  return json(200, ctx.state.webhooks.configView())
}

function isHttpUrl(value: string): boolean {
  try {
    checkWebhookUrl(value)
    return true
  } catch {
    return false
  }
}

function listWebhookFaults(ctx: RequestContext): Reply {
  const faults = ctx.state.webhooks.faultsView()
  return json(200, { count: faults.length, faults })
}

function addWebhookFault(ctx: RequestContext): Reply {
  const b = body(ctx)
  if (!b.ok) return b.reply
  const v = b.value
  const problems = unknownKeys(v, ["mode", "count", "copies", "delay_ms"])
  if (v.mode !== "drop" && v.mode !== "duplicate" && v.mode !== "delay") {
    problems.push({ field: "mode", message: 'must be "drop", "duplicate" or "delay"' })
  }
  if (v.count !== undefined && !isInt(v.count, 1)) problems.push({ field: "count", message: "must be an integer >= 1" })
  if (v.copies !== undefined && !isInt(v.copies, 2, 100)) problems.push({ field: "copies", message: "must be an integer from 2 to 100" })
  if (v.mode === "delay" && !isInt(v.delay_ms, 0, 600_000)) {
    problems.push({ field: "delay_ms", message: "must be an integer from 0 to 600000 for mode delay" })
  }
  if (problems.length > 0) return bad(problems)
  ctx.state.webhooks.addFault({
    mode: v.mode as "drop" | "duplicate" | "delay",
    remaining: (v.count as number | undefined) ?? 1,
    copies: (v.copies as number | undefined) ?? 2,
    delayMs: (v.delay_ms as number | undefined) ?? 0,
  })
  return listWebhookFaults(ctx)
}

function clearWebhookFaults(ctx: RequestContext): Reply {
  ctx.state.webhooks.clearFaults()
  return json(200, { count: 0, faults: [] })
}

function redeliver(ctx: RequestContext, [id]: string[]): Reply {
  const result = ctx.state.webhooks.redeliver(id as string)
  if (result.ok) return json(202, { event_id: id, delivery: result.delivery })
  if (result.reason === "NOT_FOUND") return paymentsError(404, "EVENT_NOT_FOUND", "Webhook event not found")
  return paymentsError(409, "WEBHOOK_URL_NOT_CONFIGURED", "Configure a webhook URL first (POST /__sandbox/webhooks/config)")
}

/* ---------- request log, tokens, references, reset ---------- */

function listRequests(ctx: RequestContext): Reply {
  const q = query(ctx)
  const requests = ctx.state.requests.query({ path: q.get("path") ?? undefined, method: q.get("method") ?? undefined })
  return json(200, { count: requests.length, requests })
}

function clearRequests(ctx: RequestContext): Reply {
  ctx.state.requests.clear()
  return json(200, { count: 0, requests: [] })
}

function tokenCounts(ctx: RequestContext): Reply {
  return json(200, ctx.state.tokens.counts())
}

function nextReference(ctx: RequestContext): Reply {
  const b = body(ctx)
  if (!b.ok) return b.reply
  const v = b.value
  const problems = unknownKeys(v, ["entity", "reference"])
  if (typeof v.reference !== "string" || !/^\d{9}$/.test(v.reference)) problems.push({ field: "reference", message: "must be 9 digits" })
  if (v.entity !== undefined && (typeof v.entity !== "string" || !/^\d{5}$/.test(v.entity))) {
    problems.push({ field: "entity", message: "must be 5 digits" })
  }
  if (problems.length > 0) return bad(problems)
  const reference = v.reference as string
  if (ctx.state.references.isUsed(reference)) return paymentsError(409, "REFERENCE_IN_USE", "That reference was already issued")
  ctx.state.references.setNext(reference, v.entity as string | undefined)
  return json(200, { entity: (v.entity as string | undefined) ?? null, reference })
}

function reset(ctx: RequestContext): Reply {
  ctx.state.reset()
  return json(200, { reset: true })
}

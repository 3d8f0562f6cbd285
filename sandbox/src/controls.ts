import type { RequestContext } from "./context"
import {
  NextReferenceBody,
  parseClockBody,
  parsePaymentReference,
  parseWebhookFaultBody,
  PayBody,
  WebhookConfigBody,
} from "./control-bodies"
import { paymentsError, type FieldProblem } from "./errors"
import { parseFault, ReleaseBody } from "./faults"
import type { Payment } from "./payment-store"
import { rawView } from "./payment-views"
import { json, type Reply } from "./reply"
import { isPlainObject, parseJson, validate } from "./validation"
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
  route("references/:entity/:reference", { GET: getByReference }),
  route("references/:entity/:reference/pay", { POST: payByReference }),
  route("references/:entity/:reference/cancel", { POST: cancelByReference }),
  route("references/:entity/:reference/expire", { POST: expireByReference }),
  route("clock", { GET: getClock, POST: moveClock }),
  route("faults", { GET: listFaults, POST: addFault, DELETE: clearFaults }),
  route("faults/:id/release", { POST: releaseFault }),
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
      return {
        ...paymentsError(405, "METHOD_NOT_ALLOWED", `${ctx.req.method} is not allowed here`),
        headers: { allow: Object.keys(r.methods).join(", ") },
      }
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

type Body<T> = { ok: true; value: T } | { ok: false; reply: Reply }
type Check<T> = (value: Record<string, unknown>) => { ok: true; value: T } | { ok: false; problems: FieldProblem[] }

/**
 * A control's body, checked by `check`. Controls take an optional JSON object; an empty body is `{}`
 * (curl-friendly, no content type needed). `pathProblems` (a path parameter's) are told with the body's, first.
 */
function body<T>(ctx: RequestContext, check: Check<T>, pathProblems: FieldProblem[] = []): Body<T> {
  const parsed = ctx.body.length === 0 ? { ok: true as const, value: {} } : parseJson(ctx.body)
  if (!parsed.ok || !isPlainObject(parsed.value)) {
    return { ok: false, reply: bad([...pathProblems, { field: "body", message: "must be a JSON object" }]) }
  }
  const checked = check(parsed.value)
  const problems = [...pathProblems, ...(checked.ok ? [] : checked.problems)]
  if (problems.length > 0 || !checked.ok) return { ok: false, reply: bad(problems) }
  return checked
}

function bad(details: FieldProblem[]): Reply {
  return paymentsError(400, "INVALID_REQUEST", "Invalid sandbox control request", details)
}

function query(ctx: RequestContext): URLSearchParams {
  return new URLSearchParams(ctx.query)
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
  return json(200, {
    forgotten: true,
    payment_id: payment.paymentId,
    seller_id: payment.sellerId,
    status: payment.status,
  })
}

function payPayment(ctx: RequestContext, [id]: string[]): Reply {
  const b = body(ctx, (v) => validate(PayBody, v))
  if (!b.ok) return b.reply
  const payment = findPayment(ctx, id as string)
  if (!payment) return paymentNotFound()
  return pay(ctx, payment, b.value.force === true)
}

/** The customer pays: only a WAITING payment, unless `force` (a late settlement of a cancelled or expired one). */
function pay(ctx: RequestContext, payment: Payment, force: boolean): Reply {
  const result = ctx.state.lifecycle.pay(payment, force)
  if (result === "already-approved")
    return paymentsError(409, "PAYMENT_ALREADY_APPROVED", "The payment is already approved")
  if (result === "not-payable") {
    return paymentsError(
      409,
      "PAYMENT_NOT_PAYABLE",
      `The payment is ${payment.status.toLowerCase()}; send {"force": true} for a late settlement`
    )
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
  return changeIfWaiting(ctx, payment, change)
}

function changeIfWaiting(ctx: RequestContext, payment: Payment, change: (p: Payment) => void): Reply {
  ctx.state.lifecycle.expireIfDue(payment)
  if (payment.status !== "WAITING") {
    return paymentsError(409, "PAYMENT_NOT_WAITING", `The payment is ${payment.status.toLowerCase()}, not waiting`)
  }
  change(payment)
  return json(200, rawView(payment))
}

/* ---------- payments by entity and reference (what a shopper and a shop owner see) ---------- */

type ByReference<T> = { ok: true; payment: Payment; value: T } | { ok: false; reply: Reply }

/**
 * The payment issued with that entity and reference, once the path (and the body, when `check` is given) are valid,
 * every problem told at once. References are unique in a sandbox whatever the entity, so there is at most one; a
 * reference issued with another entity is named in the 404, a mistyped entity being likely. Spaces are ignored
 * (references are shown in groups of three).
 */
function byReference<T = undefined>(
  ctx: RequestContext,
  [entity, reference]: string[],
  check?: Check<T>
): ByReference<T> {
  const ref = parsePaymentReference(entity as string, reference as string)
  const pathProblems = ref.ok ? [] : ref.problems
  let value = undefined as T
  if (check) {
    const b = body(ctx, check, pathProblems)
    if (!b.ok) return b
    value = b.value
  }
  if (!ref.ok) return { ok: false, reply: bad(ref.problems) }
  const { payments } = ctx.state
  const payment = payments.findByReference(ref.value.entity, ref.value.reference)
  if (payment) return { ok: true, payment, value }
  const other = payments.findByReference(undefined, ref.value.reference)
  const details = other
    ? [{ field: "entity", message: `reference ${other.reference} belongs to entity ${other.entity}` }]
    : []
  const message = `No payment has entity ${ref.value.entity} and reference ${ref.value.reference}`
  return { ok: false, reply: paymentsError(404, "PAYMENT_NOT_FOUND", message, details) }
}

function getByReference(ctx: RequestContext, params: string[]): Reply {
  const found = byReference(ctx, params)
  if (!found.ok) return found.reply
  ctx.state.lifecycle.expireIfDue(found.payment)
  return json(200, rawView(found.payment))
}

/** The same as POST /__sandbox/payments/{id}/pay, `force` included. */
function payByReference(ctx: RequestContext, params: string[]): Reply {
  const found = byReference(ctx, params, (v) => validate(PayBody, v))
  return found.ok ? pay(ctx, found.payment, found.value.force === true) : found.reply
}

function cancelByReference(ctx: RequestContext, params: string[]): Reply {
  const found = byReference(ctx, params)
  return found.ok ? changeIfWaiting(ctx, found.payment, (p) => ctx.state.lifecycle.cancel(p)) : found.reply
}

function expireByReference(ctx: RequestContext, params: string[]): Reply {
  const found = byReference(ctx, params)
  return found.ok ? changeIfWaiting(ctx, found.payment, (p) => ctx.state.lifecycle.expire(p)) : found.reply
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
  const { clock } = ctx.state
  const b = body(ctx, (v) => parseClockBody(v, clock.now()))
  if (!b.ok) return b.reply
  const move = b.value
  if ("by" in move) clock.advance(move.by)
  else clock.set(move.to)
  return clockView(ctx, ctx.state.lifecycle.sweep())
}

/* ---------- faults ---------- */

function listFaults(ctx: RequestContext): Reply {
  const faults = ctx.state.faults.list()
  return json(200, { count: faults.length, faults })
}

function addFault(ctx: RequestContext): Reply {
  const b = body(ctx, (v) => {
    const parsed = parseFault(v)
    return parsed.ok ? { ok: true, value: parsed.spec } : parsed
  })
  if (!b.ok) return b.reply
  const { faults } = ctx.state
  return json(201, faults.view(faults.add(b.value)))
}

/** Every held request is let go (and then goes on as its fault says): nothing stays stuck. */
function clearFaults(ctx: RequestContext): Reply {
  const released = ctx.state.faults.clear()
  return json(200, { count: 0, faults: [], released })
}

/** Lets go of the requests a hold fault holds: the `count` held longest, or all of them. */
function releaseFault(ctx: RequestContext, [id]: string[]): Reply {
  const b = body(ctx, (v) => validate(ReleaseBody, v))
  if (!b.ok) return b.reply
  const { faults } = ctx.state
  const result = /^[1-9]\d{0,15}$/.test(id as string)
    ? faults.release(Number(id), b.value.count)
    : ({ ok: false, reason: "NOT_FOUND" } as const)
  if (result.ok) return json(200, { released: result.released, fault: faults.view(result.fault) })
  if (result.reason === "NOT_A_HOLD") return paymentsError(409, "FAULT_NOT_HOLDING", `Fault ${id} is not a hold fault`)
  return paymentsError(
    404,
    "FAULT_NOT_FOUND",
    `No hold fault ${id} (never added, or cleared by DELETE /__sandbox/faults or reset)`
  )
}

/* ---------- webhooks ---------- */

function listWebhooks(ctx: RequestContext): Reply {
  const q = query(ctx)
  return json(
    200,
    ctx.state.webhooks.view({
      eventType: q.get("event_type") ?? undefined,
      paymentId: q.get("payment_id") ?? undefined,
    })
  )
}

function getWebhookConfig(ctx: RequestContext): Reply {
  return json(200, ctx.state.webhooks.configView())
}

/** Partial update; `url: null` or `secret: null` removes them. */
function configureWebhooks(ctx: RequestContext): Reply {
  const b = body(ctx, (v) => validate(WebhookConfigBody, v))
  if (!b.ok) return b.reply
  const { url, secret, auth, retries, backoff_ms, timeout_ms } = b.value
  const change: Partial<WebhookConfig> = {}
  if (url !== undefined) change.url = url ?? undefined
  if (secret !== undefined) change.secret = secret ?? undefined
  if (auth !== undefined) change.auth = auth
  if (retries !== undefined) change.retries = retries
  if (backoff_ms !== undefined) change.backoffMs = backoff_ms
  if (timeout_ms !== undefined) change.timeoutMs = timeout_ms
  ctx.state.webhooks.configure(change)
  return json(200, ctx.state.webhooks.configView())
}

function listWebhookFaults(ctx: RequestContext): Reply {
  const faults = ctx.state.webhooks.faultsView()
  return json(200, { count: faults.length, faults })
}

function addWebhookFault(ctx: RequestContext): Reply {
  const b = body(ctx, parseWebhookFaultBody)
  if (!b.ok) return b.reply
  const { mode, count, copies, delay_ms } = b.value
  ctx.state.webhooks.addFault({ mode, remaining: count ?? 1, copies: copies ?? 2, delayMs: delay_ms ?? 0 })
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
  return paymentsError(
    409,
    "WEBHOOK_URL_NOT_CONFIGURED",
    "Configure a webhook URL first (POST /__sandbox/webhooks/config)"
  )
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
  const b = body(ctx, (v) => validate(NextReferenceBody, v))
  if (!b.ok) return b.reply
  const { entity, reference } = b.value
  if (ctx.state.references.isUsed(reference))
    return paymentsError(409, "REFERENCE_IN_USE", "That reference was already issued")
  ctx.state.references.setNext(reference, entity)
  return json(200, { entity: entity ?? null, reference })
}

function reset(ctx: RequestContext): Reply {
  ctx.state.reset()
  return json(200, { reset: true })
}

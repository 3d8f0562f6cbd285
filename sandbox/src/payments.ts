import { authorize, type Authorized } from "./authorization"
import type { RequestContext } from "./context"
import { paymentsError } from "./errors"
import { fingerprint } from "./idempotency"
import { REASONS } from "./lifecycle"
import type { Payment } from "./payment-store"
import { creationView, statusView } from "./payment-views"
import { json, type Reply } from "./reply"
import type { z } from "zod"
import {
  CancelPaymentBody,
  CreatePaymentBody,
  hasMediaType,
  isPlainObject,
  isUuid,
  parseJson,
  validate,
  type CancelPaymentRequest,
  type CreatePaymentRequest,
} from "./validation"

export const CREATE_PATH = "/dpm/payments-gwproxy/v2/payments"
export const CANCEL_PATH = "/dpm/payments-gwproxy/v2/payments/cancel"
export const STATUS_PREFIX = "/dpm/hub-payment-info/v1/payments/info/"

/**
 * The shape both POST calls share: authenticate, validate the body, replay or refuse by idempotency key
 * (compared without request_id), run, and keep the answer for replays when it succeeded.
 */
async function idempotentPost<R extends Record<string, unknown> & { idempotency_key: string }>(
  ctx: RequestContext,
  kind: "create" | "cancel",
  schema: z.ZodType<R>,
  run: (req: R, auth: Extract<Authorized, { ok: true }>) => Reply
): Promise<Reply> {
  // The only pause is the token check: from here on the lookup, the work and the saved answer happen in one go.
  const auth = await authenticate(ctx)
  if (!auth.ok) return auth.reply
  const body = readJsonBody(ctx, schema)
  if (!body.ok) return body.reply
  const req = body.value
  const seller = auth.account.sellerId
  const print = fingerprint(kind, req)
  const prior = ctx.state.idempotency.lookup(seller, req.idempotency_key, print)
  if (prior.kind === "replay") return prior.reply
  if (prior.kind === "conflict") return keyReused()
  const reply = run(req, auth)
  if (reply.status < 300) ctx.state.idempotency.save(seller, req.idempotency_key, print, reply)
  return reply
}

/** POST .../v2/payments (spec 4.3): validate, replay or refuse by idempotency, then create. */
export function createPayment(ctx: RequestContext): Promise<Reply> {
  return idempotentPost<CreatePaymentRequest>(ctx, "create", CreatePaymentBody, (req, auth) => {
    const { state } = ctx
    const seller = auth.account.sellerId
    if (state.payments.hasOrder(seller, req.order_id)) {
      return paymentsError(409, "DUPLICATE_ORDER_ID", "A payment with this order_id already exists", [
        { field: "order_id", message: "is already used by another payment" },
      ])
    }
    if (state.payments.get(seller, req.data.payment.payment_id)) {
      return paymentsError(409, "DUPLICATE_PAYMENT_ID", "A payment with this payment_id already exists", [
        { field: "data.payment.payment_id", message: "is already used by another payment" },
      ])
    }
    return json(201, creationView(state.lifecycle.create(auth.account, req)))
  })
}

/** GET .../payments/info/{payment_id} (spec 4.4): the seller's own payments only. */
export async function readPayment(ctx: RequestContext): Promise<Reply> {
  const auth = await authenticate(ctx)
  if (!auth.ok) return auth.reply
  let paymentId: string
  try {
    paymentId = decodeURIComponent(ctx.path.slice(STATUS_PREFIX.length))
  } catch {
    paymentId = ""
  }
  if (!isUuid(paymentId)) {
    return paymentsError(400, "INVALID_REQUEST", "Request validation failed", [
      { field: "payment_id", message: "must be a UUID" },
    ])
  }
  const payment = ctx.state.payments.get(auth.account.sellerId, paymentId)
  if (!payment) return notFound()
  ctx.state.lifecycle.expireIfDue(payment)
  return json(200, statusView(payment))
}

/** POST .../v2/payments/cancel (contract page): a cancellation while WAITING, a (partial) refund once APPROVED. */
export function cancelPayment(ctx: RequestContext): Promise<Reply> {
  return idempotentPost<CancelPaymentRequest>(ctx, "cancel", CancelPaymentBody, (req, auth) => {
    const payment = ctx.state.payments.get(auth.account.sellerId, req.payment_id)
    if (!payment) return notFound()
    ctx.state.lifecycle.expireIfDue(payment)
    return cancelOrRefund(ctx, payment, req)
  })
}

function cancelOrRefund(ctx: RequestContext, payment: Payment, req: CancelPaymentRequest): Reply {
  const { lifecycle } = ctx.state
  if (payment.status === "WAITING") {
    if (req.amount !== payment.amount) {
      return paymentsError(400, "INVALID_AMOUNT", "A waiting payment is cancelled for its full amount", [
        { field: "amount", message: `must equal the payment amount (${payment.amount})` },
      ])
    }
    lifecycle.cancel(payment, req.idempotency_key)
    return operationReply(payment, req, "CANCELLATION", REASONS.cancelled)
  }
  if (payment.status === "APPROVED") {
    const refundable = payment.amount - payment.refunded
    if (req.amount > refundable) {
      return paymentsError(400, "AMOUNT_EXCEEDS_REFUNDABLE", "The amount exceeds what can still be refunded", [
        { field: "amount", message: `must be at most ${refundable}` },
      ])
    }
    lifecycle.refund(payment, req.amount, req.idempotency_key)
    return operationReply(payment, req, "REFUND", REASONS.refunded)
  }
  return paymentsError(409, "PAYMENT_ALREADY_CANCELLED", `The payment is ${payment.status.toLowerCase()}`)
}

function operationReply(
  payment: Payment,
  req: CancelPaymentRequest,
  operation: "CANCELLATION" | "REFUND",
  reason: { code: string; message: string }
): Reply {
  return json(200, {
    idempotency_key: req.idempotency_key,
    payment_id: payment.paymentId,
    operation,
    amount: String(req.amount),
    status: payment.status,
    refunded_amount: String(payment.refunded),
    processed_at: new Date(payment.updatedAt).toISOString(),
    reason_code: reason.code,
    reason_message: reason.message,
  })
}

async function authenticate(ctx: RequestContext): Promise<Authorized> {
  const auth = await authorize(ctx.req.headers.authorization, ctx.state.options.authorizationForm, ctx.state.tokens)
  if (auth.ok) ctx.note.iface = auth.claims.iface
  return auth
}

type Body<R> = { ok: true; value: R } | { ok: false; reply: Reply }

/** Content type, JSON, then every field rule; the request and idempotency ids are noted for the request log. */
function readJsonBody<R>(ctx: RequestContext, schema: z.ZodType<R>): Body<R> {
  if (!hasMediaType(ctx.req.headers["content-type"], "application/json")) {
    return invalid("Content-Type must be application/json", [
      { field: "Content-Type", message: "must be application/json" },
    ])
  }
  const parsed = parseJson(ctx.body)
  if (!parsed.ok) return invalid("Request body is not valid JSON", [{ field: "body", message: "must be valid JSON" }])
  noteIds(ctx, parsed.value)
  const checked = validate(schema, parsed.value)
  if (!checked.ok) return invalid("Request validation failed", checked.problems)
  return checked
}

function noteIds(ctx: RequestContext, value: unknown): void {
  if (!isPlainObject(value)) return
  if (typeof value.request_id === "string" && value.request_id.length <= 64) ctx.note.request_id = value.request_id
  if (typeof value.idempotency_key === "string" && value.idempotency_key.length <= 64) {
    ctx.note.idempotency_key = value.idempotency_key
  }
}

function invalid(message: string, details: { field: string; message: string }[]): { ok: false; reply: Reply } {
  return { ok: false, reply: paymentsError(400, "INVALID_REQUEST", message, details) }
}

function keyReused(): Reply {
  return paymentsError(409, "IDEMPOTENCY_KEY_REUSED", "This idempotency_key was used with a different request body", [
    { field: "idempotency_key", message: "was already used with a different request body" },
  ])
}

function notFound(): Reply {
  return paymentsError(404, "PAYMENT_NOT_FOUND", "Payment not found")
}

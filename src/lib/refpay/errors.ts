import { inspect } from "node:util"
import { createRedactor, type Redactor } from "./redact"
import { PaymentsErrorBodySchema, T1ErrorBodySchema, T2ErrorBodySchema } from "./error-bodies"

/**
 * Error classes in the manner of openai-node and stripe-node: one RefpayError carrying status, code, requestId and
 * the platform's parsed error body, and one subclass per kind of failure, chosen by a single factory from the HTTP
 * status. Every string an error carries passes through a Redactor first, so the client secret, tokens and
 * Authorization values never reach a message, a stack, toJSON(), util.inspect() or a log line.
 */

/** Catches JWTs, bearer credentials and secret-looking keys even when the caller passes no redactor. */
const BASELINE_REDACTOR = createRedactor()

/** What a failure carried from the platform or the transport; all strings are redacted before being stored. */
export interface RefpayErrorInit {
  message: string
  code: string
  status?: number
  requestId?: string
  body?: unknown
  /** Which call failed, e.g. "T1 token request", "create payment". */
  operation?: string
  /** How many HTTP attempts were made before giving up. */
  attempts?: number
  cause?: unknown
  redactor?: Redactor
}

export class RefpayError extends Error {
  /** HTTP status, when the platform answered. */
  readonly status?: number
  /**
   * The most specific code available: the T1 `error`, the T2 `name`, the payments `error_code`, an undici error code
   * for transport failures, or "HTTP_<status>" when the body names none.
   */
  readonly code: string
  /** The request_id sent with a payment call, or the platform's x-request-id header. */
  readonly requestId?: string
  /** The platform's parsed error body (T1, T2 or payments shape), redacted. */
  readonly body?: unknown
  readonly operation?: string
  readonly attempts?: number
  declare readonly cause?: unknown

  constructor(init: RefpayErrorInit) {
    const redactor = init.redactor ?? BASELINE_REDACTOR
    super(redactor.redactText(init.message))
    // Every class is named after itself, so a subclass states its name once, in its declaration. The server code is
    // compiled by tsc and never minified, so the class names survive into the build.
    this.name = new.target.name
    this.code = init.code
    this.status = init.status
    this.requestId = init.requestId
    this.body = init.body === undefined ? undefined : redactor.redactValue(init.body)
    this.operation = init.operation
    this.attempts = init.attempts
    if (init.cause !== undefined) {
      // Non-enumerable like the built-in; a sanitized copy, because the original may hold sockets or headers.
      Object.defineProperty(this, "cause", {
        value: sanitizeCause(init.cause, redactor),
        enumerable: false,
        writable: false,
        configurable: true,
      })
    }
  }

  toJSON(): Record<string, unknown> {
    const cause = this.cause as { name?: string; code?: string; message?: string } | undefined
    return {
      name: this.name,
      message: this.message,
      code: this.code,
      status: this.status,
      requestId: this.requestId,
      operation: this.operation,
      attempts: this.attempts,
      body: this.body,
      cause: cause ? { name: cause.name, code: cause.code, message: cause.message } : undefined,
    }
  }

  /** util.inspect (and so most loggers and console output) show the stack and the safe fields only. */
  [inspect.custom](depth: number, options: object): string {
    const { name: _name, message: _message, ...fields } = this.toJSON()
    const shown = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))
    return `${this.stack ?? `${this.name}: ${this.message}`} ${inspect(shown, { ...options, depth: 4 })}`
  }
}

/** 400: the request (or the credentials request) is wrong; also thrown before sending when our own checks fail. */
export class RefpayValidationError extends RefpayError {}
/** 401: invalid credentials, or an expired or malformed token that a fresh one did not cure. */
export class RefpayAuthenticationError extends RefpayError {}
/** 403: authenticated, but the granted scope does not cover the resource (spec 5.8). */
export class RefpayPermissionError extends RefpayError {}
export class RefpayNotFoundError extends RefpayError {}
/** 409: idempotency key reused with another body, duplicate order_id or payment_id, payment already cancelled. */
export class RefpayConflictError extends RefpayError {}
export class RefpayRateLimitError extends RefpayError {}
/** 5xx, after the retries were used up. */
export class RefpayServerError extends RefpayError {}
/** The platform could not be reached or dropped the connection, after the retries were used up. */
export class RefpayConnectionError extends RefpayError {}
/** Connect, headers or body timeout, after the retries were used up. */
export class RefpayTimeoutError extends RefpayConnectionError {}
/** A 2xx answer whose body does not match its schema: the call may have had its effect, the answer is unusable. */
export class RefpayResponseError extends RefpayError {
  /** Where the body broke its schema ("additional_data.reference: expected string"), values left out. */
  readonly issues: string[]

  constructor(init: RefpayErrorInit & { issues: string[] }) {
    super(init)
    const redactor = init.redactor ?? BASELINE_REDACTOR
    this.issues = init.issues.map((issue) => redactor.redactText(issue))
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues }
  }
}
/** The client configuration is wrong; thrown by createRefpayClient before any request. */
export class RefpayConfigError extends RefpayError {
  constructor(message: string) {
    super({ message, code: "INVALID_CONFIG" })
  }
}

type RefpayErrorClass = new (init: RefpayErrorInit) => RefpayError

/** The single place that maps an HTTP status to an error class. */
export function errorClassForStatus(status: number): RefpayErrorClass {
  switch (status) {
    case 400:
      return RefpayValidationError
    case 401:
      return RefpayAuthenticationError
    case 403:
      return RefpayPermissionError
    case 404:
      return RefpayNotFoundError
    case 409:
      return RefpayConflictError
    case 429:
      return RefpayRateLimitError
    default:
      return status >= 500 ? RefpayServerError : RefpayError
  }
}

/** The code and human detail found in an error body of any of the platform's three shapes. */
export interface ErrorBodySummary {
  shape: "t1" | "t2" | "payments" | "unknown"
  code?: string
  detail?: string
}

const MAX_TEXT_DETAIL = 200

export function summarizeErrorBody(body: unknown): ErrorBodySummary {
  const payments = PaymentsErrorBodySchema.safeParse(body)
  if (payments.success) {
    const fields = payments.data.details.map((d) => [d.field, d.message].filter(Boolean).join(": ")).filter(Boolean)
    const detail = [payments.data.message, fields.length ? `(${fields.join("; ")})` : undefined]
      .filter(Boolean)
      .join(" ")
    return { shape: "payments", code: payments.data.error_code, detail: detail || undefined }
  }
  const t2 = T2ErrorBodySchema.safeParse(body)
  if (t2.success) {
    const reasons = t2.data.details.map((d) => d.description_detail ?? d.description).filter(Boolean)
    return { shape: "t2", code: t2.data.name, detail: reasons.length ? reasons.join("; ") : t2.data.message }
  }
  const t1 = T1ErrorBodySchema.safeParse(body)
  if (t1.success) {
    return { shape: "t1", code: t1.data.error, detail: t1.data.error_description }
  }
  if (typeof body === "string" && body.trim()) {
    const text = body.replace(/\s+/g, " ").trim()
    return { shape: "unknown", detail: text.length > MAX_TEXT_DETAIL ? `${text.slice(0, MAX_TEXT_DETAIL)}…` : text }
  }
  return { shape: "unknown" }
}

/** Builds the error for a non-2xx answer: class from the status, code and message from the body. */
export function createApiError(args: {
  operation: string
  status: number
  body: unknown
  requestId?: string
  attempts?: number
  redactor?: Redactor
}): RefpayError {
  const summary = summarizeErrorBody(args.body)
  const code = summary.code ?? `HTTP_${args.status}`
  const message = `REFPAY ${args.operation} failed (${args.status} ${code})${summary.detail ? `: ${summary.detail}` : ""}`
  const ErrorClass = errorClassForStatus(args.status)
  return new ErrorClass({
    message,
    code,
    status: args.status,
    requestId: args.requestId,
    body: args.body,
    operation: args.operation,
    attempts: args.attempts,
    redactor: args.redactor,
  })
}

/** Builds the error for a transport failure; a timeout code gives a RefpayTimeoutError. */
export function createTransportError(args: {
  operation: string
  code: string
  timeout: boolean
  cause: unknown
  attempts: number
  requestId?: string
  redactor?: Redactor
}): RefpayError {
  const reason = args.cause instanceof Error && args.cause.message ? `: ${args.cause.message}` : ""
  const what = args.timeout ? "timed out" : "could not complete"
  const message = `REFPAY ${args.operation} ${what} (${args.code}) after ${args.attempts} attempt${
    args.attempts === 1 ? "" : "s"
  }${reason}`
  const ErrorClass = args.timeout ? RefpayTimeoutError : RefpayConnectionError
  return new ErrorClass({
    message,
    code: args.code,
    operation: args.operation,
    attempts: args.attempts,
    requestId: args.requestId,
    cause: args.cause,
    redactor: args.redactor,
  })
}

/** Builds the error for a 2xx answer whose body breaks its schema. */
export function createResponseError(args: {
  operation: string
  status: number
  body: unknown
  issues: string[]
  requestId?: string
  redactor?: Redactor
}): RefpayResponseError {
  const list =
    args.issues.slice(0, 5).join("; ") + (args.issues.length > 5 ? `; and ${args.issues.length - 5} more` : "")
  return new RefpayResponseError({
    message: `REFPAY ${args.operation} returned an unexpected ${args.status} body: ${list}`,
    code: "INVALID_RESPONSE",
    status: args.status,
    requestId: args.requestId,
    body: args.body,
    operation: args.operation,
    issues: args.issues,
    redactor: args.redactor,
  })
}

/** A plain Error with the original's name, code and redacted message; nothing else survives. */
function sanitizeCause(cause: unknown, redactor: Redactor): Error {
  const source = cause as { name?: unknown; code?: unknown; message?: unknown } | null
  const message = typeof source?.message === "string" ? source.message : String(cause)
  const copy = new Error(redactor.redactText(message)) as Error & { code?: string }
  if (typeof source?.name === "string") copy.name = source.name
  if (typeof source?.code === "string") copy.code = source.code
  return copy
}

import { setTimeout as sleep } from "node:timers/promises"
import { errors, Pool, type Dispatcher } from "undici"
import type { RefpayLogger, RefpayRetryPolicy, RefpayTimeouts } from "./config"
import { createTransportError } from "./errors"
import type { Redactor } from "./redact"
import { backoffDelayMs, classifyTransportError, isRetryableStatus } from "./retry-policy"

/**
 * The one place the client talks HTTP. One undici keep-alive Pool per origin (made on first use, reused by every
 * call; a Pool rather than an Agent in front of the pools, one lookup less per call), per-request headers/body
 * timeouts, and bounded retries with full-jitter backoff on connection errors and 5xx.
 * A 4xx is returned to the caller at once, never repeated. Whatever the status, the response body is always read
 * to the end (or destroyed on error) so the socket goes back to the pool.
 */

/**
 * Where a request goes, split into what undici's dispatcher takes. The creation endpoint, called on every payment,
 * is split once when the client is built; a URL given as a string is split on each call.
 */
export interface HttpTarget {
  /** scheme://host[:port], as `new URL(url).origin` gives it. */
  readonly origin: string
  /** Path and query string, as sent on the request line. */
  readonly path: string
  /** "/path" alone (no query string, no userinfo), for logs. */
  readonly logPath: string
}

/** Splits an absolute URL into an HttpTarget; throws a TypeError for an invalid URL, like `new URL`. */
export function httpTarget(url: string): HttpTarget {
  const parsed = new URL(url)
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}`, logPath: parsed.pathname }
}

export interface HttpRequest {
  /** Names the call in logs and errors, e.g. "create payment". */
  operation: string
  method: "GET" | "POST"
  /** An absolute URL, or one already split by httpTarget() (what the client does for its fixed endpoints). */
  url: string | HttpTarget
  headers?: Record<string, string>
  /** Serialized once by the caller; exactly these bytes go out on every attempt (idempotency_key included). */
  body?: string
  /** Carried onto a transport error so it can be matched with platform logs. */
  requestId?: string
}

export interface HttpResponse {
  status: number
  /** Lower-cased names, as undici gives them. */
  headers: Record<string, string | string[] | undefined>
  /** Parsed JSON when the body is JSON, the text otherwise ("" when empty). */
  body: unknown
  /** How many attempts it took (1 when the first one was answered without a retryable status). */
  attempts: number
}

export interface HttpClient {
  send(req: HttpRequest): Promise<HttpResponse>
  /**
   * Closes the pools this client created (idempotent); an injected dispatcher belongs to whoever injected it.
   * A call after close() fails with a RefpayConnectionError (UND_ERR_DESTROYED), never retried.
   */
  close(): Promise<void>
}

export interface HttpClientOptions {
  timeouts: RefpayTimeouts
  retries: RefpayRetryPolicy
  connections: number
  dispatcher?: Dispatcher
  random: () => number
  logger: RefpayLogger
  redactor: Redactor
}

const USER_AGENT = "medusa-payment-refpay"

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { timeouts, retries, random, logger, redactor } = options
  const injected = options.dispatcher
  /** Our own keep-alive pools, one per origin, made on first use; unused when a dispatcher is injected. */
  const pools = new Map<string, Pool>()
  let closed = false
  const poolOptions: Pool.Options = {
    connections: options.connections,
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  }
  const dispatcherFor = (origin: string): Dispatcher => {
    if (injected) return injected
    let pool = pools.get(origin)
    if (pool === undefined) {
      if (closed) throw new errors.ClientDestroyedError()
      pool = new Pool(origin, poolOptions)
      pools.set(origin, pool)
    }
    return pool
  }
  const headersTimeout = timeouts.headersMs
  const bodyTimeout = timeouts.bodyMs

  async function send(req: HttpRequest): Promise<HttpResponse> {
    let target: HttpTarget
    try {
      target = typeof req.url === "string" ? httpTarget(req.url) : req.url
    } catch (error) {
      throw transportError(req, error, 1)
    }
    // Built once per call and never modified, so every attempt sends the same bytes and the same headers.
    const headers: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT }
    if (req.headers) Object.assign(headers, req.headers)
    const body = req.body === undefined ? undefined : Buffer.from(req.body, "utf8")
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= retries.maxRetries
      let status: number
      let response: HttpResponse
      try {
        // dispatcher.request with origin and path: undici's top-level request(url) would parse the URL again.
        const res = await dispatcherFor(target.origin).request({
          origin: target.origin,
          path: target.path,
          method: req.method,
          headers,
          body,
          // Per request as well as on the pools, so they also hold for an injected dispatcher.
          headersTimeout,
          bodyTimeout,
        })
        status = res.statusCode
        let text: string
        try {
          text = await res.body.text()
        } catch (error) {
          res.body.destroy()
          throw error
        }
        response = { status, headers: res.headers, body: parseBody(text), attempts: attempt }
      } catch (error) {
        const failure = classifyTransportError(error)
        if (failure.retryable && retriesLeft) {
          const delay = backoffDelayMs(attempt - 1, retries, random)
          logger.warn(
            `REFPAY ${req.operation}: ${req.method} ${target.logPath} attempt ${attempt} failed (${failure.code}); retrying in ${delay} ms`
          )
          await sleep(delay)
          continue
        }
        throw transportError(req, error, attempt)
      }
      if (isRetryableStatus(status) && retriesLeft) {
        const delay = backoffDelayMs(attempt - 1, retries, random)
        logger.warn(
          `REFPAY ${req.operation}: ${req.method} ${target.logPath} attempt ${attempt} answered ${status}; retrying in ${delay} ms`
        )
        await sleep(delay)
        continue
      }
      logger.debug(`REFPAY ${req.operation}: ${req.method} ${target.logPath} -> ${status} (attempt ${attempt})`)
      return response
    }
  }

  function transportError(req: HttpRequest, error: unknown, attempts: number) {
    const failure = classifyTransportError(error)
    return createTransportError({
      operation: req.operation,
      code: failure.code,
      timeout: failure.timeout,
      cause: error,
      attempts,
      requestId: req.requestId,
      redactor,
    })
  }

  let closing: Promise<void> | undefined
  return {
    send,
    close() {
      // Idempotent: undici refuses to close a dispatcher twice.
      closed = true
      closing ??= Promise.all([...pools.values()].map((pool) => pool.close())).then(() => undefined)
      return closing
    },
  }
}

/**
 * JSON when it parses, the text otherwise: error pages of proxies are HTML or plain text. An empty or blank body
 * stays the text it was (JSON.parse refuses both).
 */
function parseBody(text: string): unknown {
  if (text.length === 0) return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

import type { RefpayRetryPolicy } from "./config"

/**
 * When a failed attempt is worth repeating, and how long to wait first. Pure, so the rules are tested as a table.
 *
 * Retrying a payment POST is safe because the body carries an idempotency_key the platform uses to replay the first
 * answer; the HTTP layer sends the very same bytes on every attempt.
 */

/**
 * undici and Node socket error codes that mean the exchange did not complete; classified by code, never by message.
 * UND_ERR_CLOSED / UND_ERR_DESTROYED (our own pool was closed) are left out: repeating cannot help.
 */
const RETRYABLE_CONNECTION_CODES = new Set([
  "UND_ERR_SOCKET",
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
])

/** Timeouts are retried too (the server may have been briefly stuck), but surface as RefpayTimeoutError. */
const TIMEOUT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
])

export interface TransportFailure {
  /** The error's `code`, or "UNKNOWN" when it has none. */
  code: string
  retryable: boolean
  timeout: boolean
}

/** Classifies a thrown transport error by its `code` (looking through `cause`, where Node nests socket errors). */
export function classifyTransportError(error: unknown): TransportFailure {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string" && (RETRYABLE_CONNECTION_CODES.has(code) || TIMEOUT_CODES.has(code))) {
      return { code, retryable: true, timeout: TIMEOUT_CODES.has(code) }
    }
    current = (current as { cause?: unknown }).cause
  }
  const code = (error as { code?: unknown } | null)?.code
  return { code: typeof code === "string" ? code : "UNKNOWN", retryable: false, timeout: false }
}

/** Only server errors are retried; a 4xx (including 401, handled above this layer, and 429) never is. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 && status <= 599
}

/**
 * Delay before retry number `retry` (0 for the first retry): "full jitter", a uniform draw in
 * [0, min(maxDelayMs, baseDelayMs * 2^retry)), so many clients failing together do not retry in lockstep.
 */
export function backoffDelayMs(retry: number, policy: RefpayRetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry)
  const draw = Math.min(Math.max(random(), 0), 1)
  return Math.floor(draw * ceiling)
}

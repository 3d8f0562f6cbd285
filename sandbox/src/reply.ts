import type { OutgoingHttpHeaders } from "node:http"

/**
 * What a handler answers, as data. Handlers never write to the socket themselves, so a fault with
 * `when: "after"` can let the work happen and then throw the answer away.
 */
export interface Reply {
  status: number
  /** Already serialised: replayed idempotent answers are sent byte for byte. */
  body: string
  /** Defaults to JSON. */
  contentType?: string
  headers?: OutgoingHttpHeaders
}

export const JSON_TYPE = "application/json; charset=utf-8"

export function json(status: number, value: unknown, headers?: OutgoingHttpHeaders): Reply {
  return headers ? { status, body: JSON.stringify(value), headers } : { status, body: JSON.stringify(value) }
}

/** Token answers must not be cached by anything in between (RFC 6749 section 5.1). */
export const NO_STORE: OutgoingHttpHeaders = { "cache-control": "no-store", pragma: "no-cache" }

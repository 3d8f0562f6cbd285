import type { z } from "zod"
import type { HttpClient } from "./http"
import type { Redactor } from "./redact"
import { readResponse } from "./response"
import type { TokenGrant } from "./token-schemas"

export type { TokenGrant }

/**
 * Something that obtains a brand-new access token from the platform. There is no refresh-token endpoint (spec 5.6):
 * every refresh is a new call to the token endpoint. The TokenCache decides when to call it.
 */
export interface TokenSource {
  /** Names the interface in errors and logs, e.g. "T1 token request". */
  readonly operation: string
  fetchToken(): Promise<TokenGrant>
}

/** The token request of one interface, built once: the credentials in it do not change for the client's lifetime. */
export interface TokenEndpointRequest {
  /** e.g. "T1 token request". */
  operation: string
  http: HttpClient
  /** Full token URL. */
  url: string
  headers: Record<string, string>
  body: string
  /** Reads a 2xx answer into the grant; an answer it refuses becomes a RefpayResponseError. */
  schema: z.ZodType<TokenGrant>
  redactor: Redactor
}

/**
 * A TokenSource that POSTs the same request to the token endpoint each time and reads the answer with the
 * interface's schema. T1 and T2 differ only in the request they build and the schema of their answer.
 */
export function createTokenEndpointSource(request: TokenEndpointRequest): TokenSource {
  const { operation, http, url, headers, body, schema, redactor } = request
  return {
    operation,
    async fetchToken(): Promise<TokenGrant> {
      const res = await http.send({ operation, method: "POST", url, headers, body })
      return readResponse(res, schema, { operation, redactor })
    },
  }
}

import type { RefpayRequester } from "./config"
import type { HttpClient } from "./http"
import type { Redactor } from "./redact"
import { readResponse } from "./response"
import { T2TokenResponseSchema } from "./schemas"
import type { TokenGrant, TokenSource } from "./token-source"

export interface T2TokenSourceOptions {
  http: HttpClient
  /** Full token URL, {backoffice_url}/v1/token by default. */
  url: string
  clientId: string
  clientSecret: string
  channel: string
  scope: string
  requester: RefpayRequester
  redactor: Redactor
}

/**
 * T2: back-office authentication (spec 4.2). Credentials, channel and scope travel as headers; the requester's
 * identity is a JSON body whose four fields must all be present as strings (empty is allowed, null is not).
 */
export function createT2TokenSource(options: T2TokenSourceOptions): TokenSource {
  const operation = "T2 token request"
  const body = JSON.stringify({
    branch: options.requester.branch,
    login: options.requester.login,
    name: options.requester.name,
    enrollment_number: options.requester.enrollmentNumber,
  })

  return {
    operation,
    async fetchToken(): Promise<TokenGrant> {
      const res = await options.http.send({
        operation,
        method: "POST",
        url: options.url,
        headers: {
          "content-type": "application/json",
          client_id: options.clientId,
          client_secret: options.clientSecret,
          channel: options.channel,
          scope: options.scope,
        },
        body,
      })
      const grant = readResponse(res, T2TokenResponseSchema, { operation, redactor: options.redactor })
      // T2 does not echo the scope; the one requested is the one granted (a refused scope is a 403).
      return { ...grant, scope: options.scope }
    },
  }
}

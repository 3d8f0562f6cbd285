import type { RefpayRequester } from "./config"
import type { HttpClient } from "./http"
import type { Redactor } from "./redact"
import { T2TokenResponseSchema } from "./token-schemas"
import { createTokenEndpointSource, type TokenSource } from "./token-source"

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
  return createTokenEndpointSource({
    operation: "T2 token request",
    http: options.http,
    url: options.url,
    headers: {
      "content-type": "application/json",
      client_id: options.clientId,
      client_secret: options.clientSecret,
      channel: options.channel,
      scope: options.scope,
    },
    body: JSON.stringify({
      branch: options.requester.branch,
      login: options.requester.login,
      name: options.requester.name,
      enrollment_number: options.requester.enrollmentNumber,
    }),
    // T2 does not echo the scope; the one requested is the one granted (a refused scope is a 403).
    schema: T2TokenResponseSchema.transform((grant) => ({ ...grant, scope: options.scope })),
    redactor: options.redactor,
  })
}

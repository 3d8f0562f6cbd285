import type { HttpClient } from "./http"
import type { Redactor } from "./redact"
import { T1TokenResponseSchema } from "./token-schemas"
import { createTokenEndpointSource, type TokenSource } from "./token-source"

export interface T1TokenSourceOptions {
  http: HttpClient
  /** Full token URL, {auth_url}/token by default. */
  url: string
  clientId: string
  clientSecret: string
  /** Sent as the OAuth `scope` field only when set; the spec's T1 request has no scope field. */
  scope?: string
  redactor: Redactor
}

/** T1: OAuth 2.0 client-credentials grant, form-encoded (spec 4.1); errors carry the OAuth body (spec 2.2). */
export function createT1TokenSource(options: T1TokenSourceOptions): TokenSource {
  const form: Record<string, string> = {
    grant_type: "client_credentials",
    client_id: options.clientId,
    client_secret: options.clientSecret,
  }
  if (options.scope) form.scope = options.scope

  return createTokenEndpointSource({
    operation: "T1 token request",
    http: options.http,
    url: options.url,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
    schema: T1TokenResponseSchema,
    redactor: options.redactor,
  })
}

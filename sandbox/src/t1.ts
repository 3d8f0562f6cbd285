import type { RequestContext } from "./context"
import { t1Error } from "./errors"
import { splitScope } from "./credentials"
import { json, NO_STORE, type Reply } from "./reply"
import { hasMediaType } from "./validation"

const FORM = "application/x-www-form-urlencoded"
const SINGLE = ["grant_type", "client_id", "client_secret", "scope"]

/**
 * T1 (spec 4.1): OAuth 2.0 client credentials, form-encoded, credentials in the body. Unrecognised
 * parameters are ignored (RFC 6749 section 3.2); an optional `scope` narrows the granted scope.
 */
export async function issueT1Token(ctx: RequestContext): Promise<Reply> {
  ctx.note.iface = "t1"
  if (!hasMediaType(ctx.req.headers["content-type"], FORM)) {
    return t1Error(400, "invalid_request", `Content-Type must be ${FORM}`)
  }
  const params = new URLSearchParams(ctx.body.toString("utf8"))
  for (const name of SINGLE) {
    if (params.getAll(name).length > 1) return t1Error(400, "invalid_request", `${name} must not be repeated`)
  }
  const grantType = params.get("grant_type")
  if (!grantType) return t1Error(400, "invalid_request", "grant_type is required")
  if (grantType !== "client_credentials") {
    return t1Error(400, "unsupported_grant_type", "grant_type must be client_credentials")
  }
  const clientId = params.get("client_id")
  if (!clientId) return t1Error(400, "invalid_request", "client_id is required")
  const clientSecret = params.get("client_secret")
  if (!clientSecret) return t1Error(400, "invalid_request", "client_secret is required")

  const account = ctx.state.credentials.authenticate(clientId, clientSecret)
  if (!account) return t1Error(401, "unauthorized_client", "Invalid client credentials")

  const requested = params.get("scope")
  let scope = account.scope
  if (requested !== null) {
    const scopes = splitScope(requested)
    const refused = scopes.find((s) => !account.scopes.has(s))
    if (scopes.length === 0 || refused !== undefined) {
      return t1Error(400, "invalid_scope", `scope ${refused ?? "(empty)"} is not granted to this client`)
    }
    scope = scopes.join(" ")
  }
  const tokens = ctx.state.tokens
  const accessToken = await tokens.issue(account, "t1", scope)
  return json(200, { access_token: accessToken, token_type: "Bearer", expires_in: tokens.ttl, scope }, NO_STORE)
}

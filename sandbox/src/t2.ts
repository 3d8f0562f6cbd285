import type { RequestContext } from "./context"
import { splitScope } from "./credentials"
import { t2Error, type T2Problem } from "./errors"
import { json, NO_STORE, type Reply } from "./reply"
import { hasMediaType, parseJson, T2Body, validate } from "./validation"

/** Printable ASCII without spaces: what an issued id, secret or channel can contain. */
const PLAIN = /^[\x21-\x7e]{1,256}$/
/** RFC 6749 scope: space-separated tokens of printable ASCII without `"` and `\`. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/

/**
 * T2 (spec 4.2): credentials in headers, requester identity in a JSON body. All 400 problems (headers and,
 * when the content type allows reading it, the body) come back together, one details entry each.
 */
export async function issueT2Token(ctx: RequestContext): Promise<Reply> {
  ctx.note.iface = "t2"
  const h = ctx.req.headers
  const problems: T2Problem[] = []
  const clientId = header(h.client_id, "client_id", PLAIN, problems)
  const clientSecret = header(h.client_secret, "client_secret", PLAIN, problems)
  const channel = header(h.channel, "channel", PLAIN, problems)
  const scope = header(h.scope, "scope", SCOPE, problems)
  const jsonBody = contentType(h["content-type"], problems)
  if (jsonBody) bodyProblems(ctx.body, problems)
  if (problems.length > 0) return t2Error(400, problems)

  const account = ctx.state.credentials.authenticate(clientId as string, clientSecret as string, channel)
  if (!account) return t2Error(401, [{ description: "Invalid credentials", detail: "INVALID_CREDENTIALS" }])

  const refused = splitScope(scope as string).find((s) => !account.scopes.has(s))
  if (refused !== undefined) {
    return t2Error(403, [
      { description: "Scope not granted", detail: `scope "${refused}" is not granted to this client` },
    ])
  }
  const tokens = ctx.state.tokens
  const accessToken = await tokens.issue(account, "t2", splitScope(scope as string).join(" "))
  return json(200, { access_token: accessToken, expires_in: String(tokens.ttl) }, NO_STORE)
}

function header(
  value: string | string[] | undefined,
  name: string,
  shape: RegExp,
  problems: T2Problem[]
): string | undefined {
  if (value === undefined) {
    problems.push({ description: "Missing required header", detail: `${name} header is required` })
    return undefined
  }
  if (Array.isArray(value) || !shape.test(value)) {
    if (value === "")
      problems.push({ description: "Empty required header", detail: `${name} header must not be empty` })
    else problems.push({ description: "Invalid header", detail: `${name} header is invalid` })
    return undefined
  }
  return value
}

function contentType(value: string | undefined, problems: T2Problem[]): boolean {
  if (value === undefined || value.trim() === "") {
    problems.push({ description: "Missing required header", detail: "Content-Type header is required" })
    return false
  }
  if (!hasMediaType(value, "application/json")) {
    problems.push({ description: "Invalid header", detail: "Content-Type header must be application/json" })
    return false
  }
  return true
}

function bodyProblems(body: Buffer, problems: T2Problem[]): void {
  const parsed = parseJson(body)
  if (!parsed.ok) {
    problems.push({ description: "Invalid body", detail: "body must be valid JSON" })
    return
  }
  const checked = validate(T2Body, parsed.value)
  if (checked.ok) return
  for (const p of checked.problems)
    problems.push({ description: "Invalid body field", detail: `${p.field} ${p.message}` })
}

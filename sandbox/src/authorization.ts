import type { Account } from "./credentials"
import { t2Error, type T2Problem } from "./errors"
import type { TokenClaims } from "./jwt"
import type { AuthorizationForm } from "./options"
import type { Reply } from "./reply"
import type { TokenFailure, TokenService } from "./tokens"

export type Authorized = { ok: true; account: Account; claims: TokenClaims } | { ok: false; reply: Reply }

type Failure = TokenFailure | "INVALID_AUTHORIZATION_FORM"

const DESCRIPTIONS: Record<Failure, string> = {
  MISSING_TOKEN: "Missing access token",
  MALFORMED_TOKEN: "Malformed access token",
  INVALID_TOKEN: "Invalid access token",
  EXPIRED_TOKEN: "Expired access token",
  INVALID_AUTHORIZATION_FORM: "Authorization header form not accepted",
}

const REQUIRED_SCOPE = "payments"

/**
 * Authenticates a payment call (spec 5, 7): 401 for a missing, malformed, foreign or expired token or a
 * header form the sandbox is told not to accept; 403 when the token's scope lacks `payments`.
 * "both" accepts `Bearer <token>` always and the bare token for T2 tokens, as the contract page says.
 */
export async function authorize(
  header: string | undefined,
  form: AuthorizationForm,
  tokens: TokenService
): Promise<Authorized> {
  if (header === undefined || header.trim() === "") return unauthorized("MISSING_TOKEN")
  const bearer = /^bearer /i.test(header)
  if (bearer && form === "bare") return unauthorized("INVALID_AUTHORIZATION_FORM")
  if (!bearer && form === "bearer") return unauthorized("INVALID_AUTHORIZATION_FORM")
  const token = (bearer ? header.slice(7) : header).trim()
  if (token === "") return unauthorized("MISSING_TOKEN")
  const check = await tokens.check(token)
  if (!check.ok) return unauthorized(check.reason)
  if (!bearer && form === "both" && check.claims.iface !== "t2") return unauthorized("INVALID_AUTHORIZATION_FORM")
  if (!check.claims.scope.split(" ").includes(REQUIRED_SCOPE)) {
    return {
      ok: false,
      reply: t2Error(403, [
        { description: "Insufficient scope", detail: `scope "${REQUIRED_SCOPE}" is required for this resource` },
      ]),
    }
  }
  return check
}

function unauthorized(reason: Failure): Authorized {
  const problem: T2Problem = { description: DESCRIPTIONS[reason], detail: reason }
  return { ok: false, reply: t2Error(401, [problem], { "www-authenticate": 'Bearer error="invalid_token"' }) }
}

/**
 * Redaction of credentials and tokens from anything the client logs or puts on an error (spec 5.1: credentials
 * never appear in logs). Modelled on octokit's request-error: known secret values are replaced wherever they occur,
 * and values under secret-looking keys are replaced whatever they hold, so a token the client never saw (a stale one
 * echoed back by the platform, say) is still hidden.
 */

export const REDACTED = "[REDACTED]"

/** Keys whose values are always replaced, compared case-insensitively with "-" and "_" ignored. */
const SECRET_KEYS = new Set([
  "authorization",
  "clientsecret",
  "clientid",
  "channel",
  "scope",
  "accesstoken",
  "refreshtoken",
  "idtoken",
  "password",
])

/**
 * A JWT (three base64url segments, the first starting with a JSON-object header) or a bearer credential. The
 * credential must be long enough to be one, so prose such as "a Bearer token is required" stays readable.
 */
const JWT_PATTERN = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g
const BEARER_PATTERN = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{16,}/gi

/** Shorter values are not registered: replacing a 2-letter secret everywhere would garble every message. */
const MIN_SECRET_LENGTH = 4
/** Tokens are registered as they are issued; only the newest few can still be in flight. */
const MAX_TOKENS_REMEMBERED = 16

export interface Redactor {
  /** Registers a long-lived secret (client secret, client id). */
  addSecret(secret: string | undefined): void
  /** Registers an issued access token; only the most recent ones are remembered. */
  addToken(token: string): void
  /** Returns the text with every registered secret, JWT and bearer credential replaced. */
  redactText(text: string): string
  /** Deep copy of a JSON-like value with secrets replaced in every string and under every secret-looking key. */
  redactValue<T>(value: T): T
}

export function createRedactor(initialSecrets: (string | undefined)[] = []): Redactor {
  const secrets = new Set<string>()
  const tokens: string[] = []

  const addSecret = (secret: string | undefined): void => {
    if (typeof secret === "string" && secret.length >= MIN_SECRET_LENGTH) secrets.add(secret)
  }
  initialSecrets.forEach(addSecret)

  const redactText = (text: string): string => {
    let out = text
    // Longest first, so a secret containing another secret is replaced whole.
    const known = [...secrets, ...tokens].sort((a, b) => b.length - a.length)
    for (const secret of known) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED)
    }
    return out.replace(JWT_PATTERN, REDACTED).replace(BEARER_PATTERN, `$1 ${REDACTED}`)
  }

  const redactValue = <T>(value: T): T => redactDeep(value, redactText, new WeakSet()) as T

  return {
    addSecret,
    addToken(token: string) {
      if (typeof token !== "string" || token.length < MIN_SECRET_LENGTH || tokens.includes(token)) return
      tokens.push(token)
      if (tokens.length > MAX_TOKENS_REMEMBERED) tokens.shift()
    },
    redactText,
    redactValue,
  }
}

function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, ""))
}

function redactDeep(value: unknown, redactText: (s: string) => string, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redactText(value)
  if (value === null || typeof value !== "object") return value
  if (seen.has(value)) return "[Circular]"
  seen.add(value)
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redactText, seen))
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    out[key] = isSecretKey(key) ? REDACTED : redactDeep(item, redactText, seen)
  }
  return out
}

/** What stands for a hidden part of a URL: plain ASCII, so the result still reads (and parses) as a URL. */
export const REDACTED_URL_PART = "***"

/**
 * A URL (or a path) with its user info, every query value and its fragment hidden, for showing a configured address:
 * `https://user:pass@host/p?token=abc#x` -> `https://***:***@host/p?token=***#***`. Scheme, host, port, path and query
 * parameter names stay, so the address can still be recognised; an empty query value stays empty. Works on the text
 * (no URL parsing), so the rest of the address is shown exactly as configured.
 */
export function redactUrl(url: string): string {
  const hidden = REDACTED_URL_PART
  const [beforeFragment, ...fragment] = url.split("#")
  const [address, ...query] = (beforeFragment as string).split("?")
  const withoutUser = (address as string).replace(
    /^([a-z][a-z0-9+.-]*:\/\/)([^/]*)@/i,
    (_match, scheme: string, userInfo: string) => `${scheme}${userInfo.includes(":") ? `${hidden}:${hidden}` : hidden}@`
  )
  const queryText = query.join("?")
  const redactedQuery = queryText
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=")
      if (equals === -1) return pair === "" ? pair : hidden
      return equals === pair.length - 1 ? pair : `${pair.slice(0, equals)}=${hidden}`
    })
    .join("&")
  const fragmentText = fragment.join("#")
  return (
    withoutUser +
    (query.length ? `?${redactedQuery}` : "") +
    (fragment.length ? `#${fragmentText === "" ? "" : hidden}` : "")
  )
}

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

/** The claims of every sandbox token. */
export interface TokenClaims {
  /** client_id of the credential the token was issued to. */
  sub: string
  /** Space-separated granted scopes. */
  scope: string
  env: "sandbox"
  iat: number
  exp: number
  jti: string
  /** Which token interface issued it; T2 tokens may also be sent bare (spec 5.4). */
  iface: "t1" | "t2"
}

export type JwtResult = { ok: true; claims: TokenClaims } | { ok: false; reason: "MALFORMED_TOKEN" | "INVALID_TOKEN" }

const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url")

/** HS256 compact JWTs, signed with a key that lives as long as the sandbox process. */
export class JwtSigner {
  constructor(private readonly key: Buffer = randomBytes(32)) {}

  sign(claims: TokenClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString("base64url")
    const signingInput = `${HEADER}.${payload}`
    return `${signingInput}.${this.mac(signingInput).toString("base64url")}`
  }

  /**
   * Checks structure, algorithm and signature; not expiry, which depends on the sandbox clock and is
   * checked by the caller on every use (a verified token is cached, its exp is not).
   */
  verify(token: string): JwtResult {
    const parts = token.split(".")
    if (parts.length !== 3 || parts.some((p) => p.length === 0 || !/^[A-Za-z0-9_-]+$/.test(p))) {
      return { ok: false, reason: "MALFORMED_TOKEN" }
    }
    const [header, payload, signature] = parts as [string, string, string]
    const alg = decodeJson(header)
    const claims = decodeJson(payload)
    if (!isObject(alg) || !isObject(claims)) return { ok: false, reason: "MALFORMED_TOKEN" }
    // Only HS256 is ever issued; refusing anything else closes the "alg: none" door.
    if (alg.alg !== "HS256") return { ok: false, reason: "INVALID_TOKEN" }
    const expected = this.mac(`${header}.${payload}`)
    const given = Buffer.from(signature, "base64url")
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { ok: false, reason: "INVALID_TOKEN" }
    }
    if (!hasClaims(claims)) return { ok: false, reason: "MALFORMED_TOKEN" }
    return { ok: true, claims }
  }

  private mac(input: string): Buffer {
    return createHmac("sha256", this.key).update(input).digest()
  }
}

function decodeJson(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, "base64url").toString("utf8"))
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

function hasClaims(c: Record<string, unknown>): c is Record<string, unknown> & TokenClaims {
  return (
    typeof c.sub === "string" &&
    typeof c.scope === "string" &&
    c.env === "sandbox" &&
    typeof c.iat === "number" &&
    typeof c.exp === "number" &&
    typeof c.jti === "string" &&
    (c.iface === "t1" || c.iface === "t2")
  )
}

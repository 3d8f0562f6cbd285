import { createSecretKey, randomBytes, type KeyObject } from "node:crypto"
import { compactVerify, errors, SignJWT } from "jose"
import { z } from "zod"

/** The claims of every sandbox token. */
const Claims = z.object({
  /** client_id of the credential the token was issued to. */
  sub: z.string(),
  /** Space-separated granted scopes. */
  scope: z.string(),
  env: z.literal("sandbox"),
  iat: z.number(),
  exp: z.number(),
  jti: z.string(),
  /** Which token interface issued it; T2 tokens may also be sent bare (spec 5.4). */
  iface: z.enum(["t1", "t2"]),
})

export type TokenClaims = z.infer<typeof Claims>

/** Three non-empty base64url parts: anything else is malformed before any key is tried. */
const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

export type JwtResult = { ok: true; claims: TokenClaims } | { ok: false; reason: "MALFORMED_TOKEN" | "INVALID_TOKEN" }

/** HS256 compact JWTs (jose), signed with a key that lives as long as the sandbox process. */
export class JwtSigner {
  private readonly key: KeyObject

  constructor(key: Buffer = randomBytes(32)) {
    this.key = createSecretKey(key)
  }

  sign(claims: TokenClaims): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(this.key)
  }

  /**
   * Checks structure, algorithm and signature, then the claims; not expiry, which depends on the sandbox clock and
   * is checked by the caller on every use (a verified token is cached, its exp is not). That is why this is jose's
   * JWS verification and not `jwtVerify`, which would judge exp by the real clock.
   */
  async verify(token: string): Promise<JwtResult> {
    if (!COMPACT.test(token)) return { ok: false, reason: "MALFORMED_TOKEN" }
    let payload: Uint8Array
    try {
      // Only HS256 is ever issued; refusing anything else closes the "alg: none" door.
      ;({ payload } = await compactVerify(token, this.key, { algorithms: ["HS256"] }))
    } catch (err) {
      const forged = err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JOSEAlgNotAllowed
      return { ok: false, reason: forged ? "INVALID_TOKEN" : "MALFORMED_TOKEN" }
    }
    const claims = Claims.safeParse(decodeJson(payload))
    return claims.success ? { ok: true, claims: claims.data } : { ok: false, reason: "MALFORMED_TOKEN" }
  }
}

function decodeJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString("utf8"))
  } catch {
    return undefined
  }
}

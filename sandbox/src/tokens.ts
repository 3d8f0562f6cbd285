import { randomUUID } from "node:crypto"
import type { SandboxClock } from "./clock"
import type { Account, CredentialStore } from "./credentials"
import type { JwtSigner, TokenClaims } from "./jwt"

export type TokenFailure = "MISSING_TOKEN" | "MALFORMED_TOKEN" | "INVALID_TOKEN" | "EXPIRED_TOKEN"

export type TokenCheck = { ok: true; account: Account; claims: TokenClaims } | { ok: false; reason: TokenFailure }

interface Verified {
  account: Account
  claims: TokenClaims
}

/** Verified tokens kept so the hot path skips the signature check; cleared wholesale when full (a sandbox, not a CDN). */
const CACHE_LIMIT = 50_000

/** Issues tokens (both interfaces) and authenticates them on payment calls. */
export class TokenService {
  private readonly verified = new Map<string, Verified>()
  private issuedT1 = 0
  private issuedT2 = 0

  constructor(
    private readonly signer: JwtSigner,
    private readonly clock: SandboxClock,
    private readonly credentials: CredentialStore,
    private readonly ttlSeconds: number
  ) {}

  get ttl(): number {
    return this.ttlSeconds
  }

  async issue(account: Account, iface: "t1" | "t2", scope: string): Promise<string> {
    const iat = Math.floor(this.clock.now() / 1000)
    const claims: TokenClaims = {
      sub: account.clientId,
      scope,
      env: "sandbox",
      iat,
      exp: iat + this.ttlSeconds,
      jti: randomUUID(),
      iface,
    }
    const token = await this.signer.sign(claims)
    if (iface === "t1") this.issuedT1++
    else this.issuedT2++
    this.remember(token, { account, claims })
    return token
  }

  /** Signature and claims are checked once per token; expiry is checked against the sandbox clock every time. */
  async check(token: string): Promise<TokenCheck> {
    let entry = this.verified.get(token)
    if (!entry) {
      const result = await this.signer.verify(token)
      if (!result.ok) return result
      const account = this.credentials.account(result.claims.sub)
      if (!account) return { ok: false, reason: "INVALID_TOKEN" }
      entry = { account, claims: result.claims }
      this.remember(token, entry)
    }
    if (entry.claims.exp * 1000 <= this.clock.now()) return { ok: false, reason: "EXPIRED_TOKEN" }
    return { ok: true, account: entry.account, claims: entry.claims }
  }

  counts(): { issued: number; t1: number; t2: number } {
    return { issued: this.issuedT1 + this.issuedT2, t1: this.issuedT1, t2: this.issuedT2 }
  }

  /** Forgets counts and the cache; the signing key stays, so tokens a client still holds remain valid. */
  reset(): void {
    this.verified.clear()
    this.issuedT1 = 0
    this.issuedT2 = 0
  }

  private remember(token: string, entry: Verified): void {
    if (this.verified.size >= CACHE_LIMIT) this.verified.clear()
    this.verified.set(token, entry)
  }
}

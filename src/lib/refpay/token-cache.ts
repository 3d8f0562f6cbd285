import type { RefpayLogger, RefpayT2AuthorizationForm } from "./config"
import type { Redactor } from "./redact"
import type { TokenSource } from "./token-source"

/**
 * Keeps one access token in memory and refreshes it before it expires, in the manner of the Azure SDK's
 * tokenCycler (spec 5.2, 5.5: reuse a token until near expiry, never one per call):
 * - a token is reused until the refresh window before its expiry;
 * - inside the window, callers wait for a refresh, but if that refresh fails the current token is still used until
 *   it really expires (a platform hiccup near expiry must not fail payments that a valid token can still make);
 * - at most one refresh is in flight, shared by every caller;
 * - a failed refresh leaves nothing behind, so the next caller starts a fresh one;
 * - invalidate(token) drops a token the platform refused (401), once, however many callers report it.
 */

export interface CachedToken {
  accessToken: string
  /** Epoch ms at which the platform stops accepting it (measured from when we asked for it). */
  expiresAtMs: number
  /** Epoch ms from which it is refreshed before use. */
  refreshAtMs: number
  scope?: string
}

export interface TokenCacheOptions {
  /** Refresh this many seconds before expiry; capped at half the token's lifetime so short tokens are still reused. */
  refreshWindowSeconds: number
  /** How the Authorization header carries the token: "Bearer <token>" or the bare token (T2 only, spec 5.4). */
  authorizationForm: RefpayT2AuthorizationForm
  now: () => number
  logger: RefpayLogger
  /** Told about every new token so it can be scrubbed from errors and logs. */
  redactor?: Redactor
}

export interface AuthorizationValue {
  /** The full header value to send. */
  header: string
  /** The token inside it, to hand back to invalidate() if the platform refuses it. */
  token: string
}

export class TokenCache {
  private current?: CachedToken
  private refreshing?: Promise<CachedToken>
  private fetches = 0
  private authorization?: { token: CachedToken; value: AuthorizationValue }

  constructor(
    private readonly source: TokenSource,
    private readonly options: TokenCacheOptions
  ) {}

  /** How many times the token endpoint has been asked for a token (failed attempts included). */
  get fetchCount(): number {
    return this.fetches
  }

  async getToken(): Promise<CachedToken> {
    const current = this.current
    const now = this.options.now()
    if (current && now < current.refreshAtMs) return current
    if (current && now < current.expiresAtMs) {
      try {
        return await this.refresh()
      } catch (error) {
        if (this.options.now() < current.expiresAtMs && this.current === current) {
          this.options.logger.warn(
            `REFPAY ${this.source.operation}: early refresh failed (${describe(error)}); using the current token until it expires`
          )
          return current
        }
        throw error
      }
    }
    return this.refresh()
  }

  async authorizationHeader(): Promise<AuthorizationValue> {
    return this.freshAuthorization() ?? this.authorizationFor(await this.getToken())
  }

  /**
   * The Authorization value of the current token when it can be used as it is (before its refresh window), without
   * waiting for anything; undefined when the caller must go through authorizationHeader(). Lets a payment call skip
   * the asynchronous path on the common case.
   */
  freshAuthorization(): AuthorizationValue | undefined {
    const current = this.current
    if (current === undefined || this.options.now() >= current.refreshAtMs) return undefined
    return this.authorizationFor(current)
  }

  /** Built once per token: the same header string and object serve every call made with it. */
  private authorizationFor(token: CachedToken): AuthorizationValue {
    const memo = this.authorization
    if (memo !== undefined && memo.token === token) return memo.value
    const { accessToken } = token
    const header = this.options.authorizationForm === "bare" ? accessToken : `Bearer ${accessToken}`
    const value: AuthorizationValue = Object.freeze({ header, token: accessToken })
    this.authorization = { token, value }
    return value
  }

  /**
   * Forgets the token the platform refused. Passing the refused token makes this safe under concurrency: when ten
   * calls all get a 401 for the same token, the first one drops it and the others find a newer one (or join its
   * refresh) instead of dropping that one too. Without an argument it always forgets the current token.
   */
  invalidate(refusedToken?: string): void {
    if (!this.current) return
    if (refusedToken === undefined || this.current.accessToken === refusedToken) {
      this.current = undefined
    }
  }

  private refresh(): Promise<CachedToken> {
    if (this.refreshing) return this.refreshing
    const requestedAt = this.options.now()
    this.fetches += 1
    // Started through a resolved promise so even a synchronous throw in fetchToken goes through finally() below,
    // after `this.refreshing` has been assigned.
    const refreshing: Promise<CachedToken> = Promise.resolve()
      .then(() => this.source.fetchToken())
      .then((grant) => {
        const lifetimeMs = grant.expiresInSeconds * 1000
        const windowMs = Math.min(this.options.refreshWindowSeconds * 1000, lifetimeMs / 2)
        const token: CachedToken = {
          accessToken: grant.accessToken,
          expiresAtMs: requestedAt + lifetimeMs,
          refreshAtMs: requestedAt + lifetimeMs - windowMs,
          scope: grant.scope,
        }
        this.options.redactor?.addToken(token.accessToken)
        this.current = token
        this.options.logger.debug(
          `REFPAY ${this.source.operation}: new token, valid ${grant.expiresInSeconds} s (fetch #${this.fetches})`
        )
        return token
      })
      .finally(() => {
        if (this.refreshing === refreshing) this.refreshing = undefined
      })
    this.refreshing = refreshing
    return refreshing
  }
}

function describe(error: unknown): string {
  const e = error as { name?: unknown; code?: unknown } | null
  return [e?.name, e?.code].filter((v) => typeof v === "string").join(" ") || "unknown error"
}

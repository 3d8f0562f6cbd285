import { createRedactor } from "../redact"
import { TokenCache, type TokenCacheOptions } from "../token-cache"
import type { TokenGrant, TokenSource } from "../token-source"

/** A TokenSource whose answers the test releases by hand, so concurrency is deterministic. */
class ManualSource implements TokenSource {
  readonly operation = "T1 token request"
  readonly pending: { resolve: (g: TokenGrant) => void; reject: (e: unknown) => void }[] = []
  calls = 0

  fetchToken(): Promise<TokenGrant> {
    this.calls += 1
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }))
  }

  grant(accessToken: string, expiresInSeconds = 3600): void {
    const next = this.pending.shift()
    if (!next) throw new Error("no token request is waiting")
    next.resolve({ accessToken, expiresInSeconds })
  }

  fail(error: unknown): void {
    const next = this.pending.shift()
    if (!next) throw new Error("no token request is waiting")
    next.reject(error)
  }
}

/** A TokenSource that answers at once with token-1, token-2, ... */
class CountingSource implements TokenSource {
  readonly operation = "T2 token request"
  calls = 0
  constructor(private readonly expiresInSeconds = 3600) {}
  async fetchToken(): Promise<TokenGrant> {
    this.calls += 1
    return { accessToken: `token-${this.calls}`, expiresInSeconds: this.expiresInSeconds, scope: "payments" }
  }
}

const T0 = 1_700_000_000_000
const flush = () => new Promise((resolve) => setImmediate(resolve))

function makeCache(source: TokenSource, overrides: Partial<TokenCacheOptions> = {}) {
  const clock = { now: T0 }
  const logger = { debug: jest.fn(), info: jest.fn(), warn: jest.fn(), error: jest.fn() }
  const cache = new TokenCache(source, {
    refreshWindowSeconds: 60,
    authorizationForm: "bearer",
    now: () => clock.now,
    logger,
    ...overrides,
  })
  return { cache, clock, logger }
}

describe("TokenCache", () => {
  it("reuses one token for many calls until the refresh window", async () => {
    const source = new CountingSource()
    const { cache, clock } = makeCache(source)
    for (let i = 0; i < 25; i++) expect((await cache.getToken()).accessToken).toBe("token-1")
    clock.now = T0 + (3600 - 60) * 1000 - 1
    expect((await cache.getToken()).accessToken).toBe("token-1")
    expect(source.calls).toBe(1)
    expect(cache.fetchCount).toBe(1)
  })

  it("records expiry from the moment the token was requested", async () => {
    const { cache } = makeCache(new CountingSource())
    const token = await cache.getToken()
    expect(token).toEqual({
      accessToken: "token-1",
      expiresAtMs: T0 + 3_600_000,
      refreshAtMs: T0 + 3_540_000,
      scope: "payments",
    })
  })

  it("refreshes once the refresh window before expiry is reached", async () => {
    const source = new CountingSource()
    const { cache, clock } = makeCache(source)
    await cache.getToken()
    clock.now = T0 + 3_540_000
    expect((await cache.getToken()).accessToken).toBe("token-2")
    expect(source.calls).toBe(2)
    // The new token counts from the refresh time.
    clock.now = T0 + 3_540_000 + 3_539_999
    expect((await cache.getToken()).accessToken).toBe("token-2")
    expect(source.calls).toBe(2)
  })

  it("caps the window at half the lifetime so short tokens are still reused", async () => {
    const source = new CountingSource(60)
    const { cache, clock } = makeCache(source)
    await cache.getToken()
    clock.now = T0 + 29_999
    expect((await cache.getToken()).accessToken).toBe("token-1")
    clock.now = T0 + 30_000
    expect((await cache.getToken()).accessToken).toBe("token-2")
  })

  it("shares one in-flight request among concurrent first callers", async () => {
    const source = new ManualSource()
    const { cache } = makeCache(source)
    const callers = Array.from({ length: 20 }, () => cache.getToken())
    await flush()
    expect(source.calls).toBe(1)
    source.grant("shared")
    const tokens = await Promise.all(callers)
    expect(new Set(tokens.map((t) => t.accessToken))).toEqual(new Set(["shared"]))
    expect(cache.fetchCount).toBe(1)
  })

  it("shares one refresh among concurrent callers inside the refresh window", async () => {
    const source = new ManualSource()
    const { cache, clock } = makeCache(source)
    const first = cache.getToken()
    await flush()
    source.grant("old")
    await first
    clock.now = T0 + 3_550_000
    const callers = Array.from({ length: 10 }, () => cache.getToken())
    await flush()
    expect(source.calls).toBe(2)
    source.grant("new")
    expect((await Promise.all(callers)).map((t) => t.accessToken)).toEqual(Array(10).fill("new"))
  })

  it("a failed fetch rejects every waiting caller, then the next caller starts afresh", async () => {
    const source = new ManualSource()
    const { cache } = makeCache(source)
    const callers = [cache.getToken(), cache.getToken(), cache.getToken()]
    await flush()
    const boom = new Error("token endpoint down")
    source.fail(boom)
    for (const caller of callers) await expect(caller).rejects.toBe(boom)
    const next = cache.getToken()
    await flush()
    expect(source.calls).toBe(2)
    source.grant("after-failure")
    expect((await next).accessToken).toBe("after-failure")
  })

  it("a synchronous throw in the source does not leave a stuck refresh behind", async () => {
    let calls = 0
    const source: TokenSource = {
      operation: "T1 token request",
      fetchToken: () => {
        calls += 1
        if (calls === 1) throw new Error("sync failure")
        return Promise.resolve({ accessToken: "ok-token", expiresInSeconds: 3600 })
      },
    }
    const { cache } = makeCache(source)
    await expect(cache.getToken()).rejects.toThrow("sync failure")
    expect((await cache.getToken()).accessToken).toBe("ok-token")
    expect(cache.fetchCount).toBe(2)
  })

  it("keeps using the current token when an early refresh fails, until it expires", async () => {
    const source = new ManualSource()
    const { cache, clock, logger } = makeCache(source)
    const first = cache.getToken()
    await flush()
    source.grant("current")
    await first

    clock.now = T0 + 3_560_000
    const inWindow = cache.getToken()
    await flush()
    source.fail(Object.assign(new Error("500"), { name: "RefpayServerError", code: "HTTP_500" }))
    expect((await inWindow).accessToken).toBe("current")
    expect(logger.warn).toHaveBeenCalledWith(
      "REFPAY T1 token request: early refresh failed (RefpayServerError HTTP_500); using the current token until it expires"
    )

    clock.now = T0 + 3_600_000
    const expired = cache.getToken()
    await flush()
    source.fail(new Error("still down"))
    await expect(expired).rejects.toThrow("still down")
    expect(source.calls).toBe(3)
  })

  it("invalidate(refused) drops that token only once, however many callers report it", async () => {
    const source = new CountingSource()
    const { cache } = makeCache(source)
    const { token: refused } = await cache.authorizationHeader()
    // Ten calls got a 401 for the same token; each invalidates it and asks again.
    const again = await Promise.all(
      Array.from({ length: 10 }, async () => {
        cache.invalidate(refused)
        return cache.authorizationHeader()
      })
    )
    expect(again.map((a) => a.token)).toEqual(Array(10).fill("token-2"))
    expect(source.calls).toBe(2)
    // A late report about the old token does not drop the new one.
    cache.invalidate(refused)
    expect((await cache.getToken()).accessToken).toBe("token-2")
    // Without an argument the current token is dropped.
    cache.invalidate()
    expect((await cache.getToken()).accessToken).toBe("token-3")
  })

  it("formats the Authorization header as Bearer or bare", async () => {
    expect(await makeCache(new CountingSource()).cache.authorizationHeader()).toEqual({
      header: "Bearer token-1",
      token: "token-1",
    })
    const bare = makeCache(new CountingSource(), { authorizationForm: "bare" }).cache
    expect(await bare.authorizationHeader()).toEqual({ header: "token-1", token: "token-1" })
  })

  it("freshAuthorization() hands out the cached value synchronously only before the refresh window", async () => {
    const source = new CountingSource()
    const { cache, clock } = makeCache(source)
    expect(cache.freshAuthorization()).toBeUndefined()
    const first = await cache.authorizationHeader()
    expect(cache.freshAuthorization()).toBe(first)
    expect(cache.freshAuthorization()).toEqual({ header: "Bearer token-1", token: "token-1" })
    expect(source.calls).toBe(1)

    // Inside the window the caller must go through authorizationHeader(), which refreshes.
    clock.now = T0 + 3_540_000
    expect(cache.freshAuthorization()).toBeUndefined()
    expect((await cache.authorizationHeader()).token).toBe("token-2")
    expect(cache.freshAuthorization()?.token).toBe("token-2")

    // A refused token is never handed out again.
    cache.invalidate("token-2")
    expect(cache.freshAuthorization()).toBeUndefined()
  })

  it("registers every new token with the redactor", async () => {
    const redactor = createRedactor()
    const { cache } = makeCache(new CountingSource(), { redactor })
    await cache.getToken()
    expect(redactor.redactText("x token-1 y")).toBe("x [REDACTED] y")
  })
})

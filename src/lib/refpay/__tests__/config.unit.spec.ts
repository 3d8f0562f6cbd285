import { DEFAULT_PATHS, joinUrl, resolveRefpayConfig, type RefpayClientConfig } from "../config"
import { RefpayConfigError } from "../errors"

const t1: RefpayClientConfig = {
  tokenInterface: "t1",
  authUrl: "https://pay.example/auth",
  paymentsUrl: "https://pay.example",
  clientId: "id-1234",
  clientSecret: "secret-1234",
}

describe("joinUrl keeps the base path prefix", () => {
  it.each([
    ["http://h:1/auth", "/token", "http://h:1/auth/token"],
    ["http://h:1/auth/", "/token", "http://h:1/auth/token"],
    ["http://h:1/auth//", "token", "http://h:1/auth/token"],
    ["http://h:1", "/dpm/x", "http://h:1/dpm/x"],
    ["http://h:1/", "/v1/token", "http://h:1/v1/token"],
    ["http://h:1/pre", "", "http://h:1/pre"],
  ])("%s + %s", (base, path, expected) => {
    expect(joinUrl(base, path)).toBe(expected)
  })
})

describe("resolveRefpayConfig", () => {
  it("fills the defaults", () => {
    const resolved = resolveRefpayConfig(t1)
    expect(resolved.paths).toEqual(DEFAULT_PATHS)
    expect(resolved.timeouts).toEqual({ connectMs: 5000, headersMs: 10000, bodyMs: 10000 })
    expect(resolved.retries).toEqual({ maxRetries: 2, baseDelayMs: 200, maxDelayMs: 2000 })
    expect(resolved.tokenRefreshWindowSeconds).toBe(60)
    expect(resolved.pool).toEqual({ connections: 50 })
    expect(resolved.requester).toEqual({ branch: "", login: "", name: "", enrollmentNumber: "" })
    expect(resolved.authorizationForm).toBe("bearer")
    expect(resolved.now).toBe(Date.now)
  })

  it("T1 always uses Bearer, whatever t2AuthorizationForm says", () => {
    expect(resolveRefpayConfig({ ...t1, t2AuthorizationForm: "bare" }).authorizationForm).toBe("bearer")
  })

  it("T2 honours bare and overrides merge with defaults", () => {
    const resolved = resolveRefpayConfig({
      tokenInterface: "t2",
      backofficeUrl: "https://bo.example/backoffice",
      paymentsUrl: "https://pay.example",
      clientId: "id-1234",
      clientSecret: "secret-1234",
      channel: "web",
      scope: "payments",
      t2AuthorizationForm: "bare",
      paths: { cancelPayment: "/dpm/payments-gwproxy/v2/payments/{payment_id}/cancel", t2Token: undefined },
      retries: { maxRetries: 0 },
      requester: { login: "shop" },
    })
    expect(resolved.authorizationForm).toBe("bare")
    expect(resolved.paths.cancelPayment).toBe("/dpm/payments-gwproxy/v2/payments/{payment_id}/cancel")
    expect(resolved.paths.t2Token).toBe("/v1/token")
    expect(resolved.retries).toEqual({ maxRetries: 0, baseDelayMs: 200, maxDelayMs: 2000 })
    expect(resolved.requester).toEqual({ branch: "", login: "shop", name: "", enrollmentNumber: "" })
  })

  // Every other setting is validated by the provider's options table (providers/refpay/__tests__/options.unit.spec.ts).
  it("names every base URL it cannot build on at once and never echoes the secret", () => {
    let error: RefpayConfigError | undefined
    try {
      resolveRefpayConfig({
        tokenInterface: "t2",
        paymentsUrl: "ftp://pay.example",
        clientId: "",
        clientSecret: "secret-1234",
        timeouts: { headersMs: 0 },
      })
    } catch (e) {
      error = e as RefpayConfigError
    }
    expect(error).toBeInstanceOf(RefpayConfigError)
    expect(error!.code).toBe("INVALID_CONFIG")
    expect(error!.message).toBe(
      "Invalid REFPAY client configuration: paymentsUrl must use http or https; backofficeUrl is required"
    )
    expect(error!.message).not.toContain("secret-1234")
  })

  it("refuses a base URL with a query string or fragment, which joining a path to it would bury", () => {
    expect(() => resolveRefpayConfig({ ...t1, authUrl: "https://pay.example/auth?key=k" })).toThrow(
      "authUrl must not carry a query string or fragment"
    )
    expect(() => resolveRefpayConfig({ ...t1, paymentsUrl: "https://pay.example#x" })).toThrow(
      "paymentsUrl must not carry a query string or fragment"
    )
    expect(() => resolveRefpayConfig({ ...t1, paymentsUrl: "pay.example" })).toThrow(
      "paymentsUrl must be an absolute http(s) URL"
    )
  })

  it("T1 needs authUrl but no channel or scope", () => {
    expect(() => resolveRefpayConfig({ ...t1, authUrl: undefined })).toThrow("authUrl is required")
    expect(() => resolveRefpayConfig(t1)).not.toThrow()
  })
})

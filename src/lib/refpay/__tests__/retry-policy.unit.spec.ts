import { backoffDelayMs, classifyTransportError, isRetryableStatus } from "../retry-policy"

const policy = { maxRetries: 5, baseDelayMs: 200, maxDelayMs: 2000 }

describe("backoffDelayMs: full jitter under an exponential ceiling", () => {
  it.each([
    [0, 200],
    [1, 400],
    [2, 800],
    [3, 1600],
    [4, 2000],
    [10, 2000],
  ])("retry %i draws below %i ms", (retry, ceiling) => {
    expect(backoffDelayMs(retry, policy, () => 0)).toBe(0)
    expect(backoffDelayMs(retry, policy, () => 0.5)).toBe(Math.floor(ceiling / 2))
    expect(backoffDelayMs(retry, policy, () => 0.999999)).toBe(ceiling - 1)
  })

  it("clamps a random source that strays out of [0, 1]", () => {
    expect(backoffDelayMs(0, policy, () => 7)).toBe(200)
    expect(backoffDelayMs(0, policy, () => -1)).toBe(0)
  })

  it("a zero base gives no delay", () => {
    expect(backoffDelayMs(3, { maxRetries: 2, baseDelayMs: 0, maxDelayMs: 2000 }, () => 0.9)).toBe(0)
  })
})

describe("isRetryableStatus: 5xx only", () => {
  it.each([500, 502, 503, 504, 599])("%i is retried", (s) => expect(isRetryableStatus(s)).toBe(true))
  it.each([200, 201, 400, 401, 403, 404, 408, 409, 429, 600])("%i is not", (s) =>
    expect(isRetryableStatus(s)).toBe(false)
  )
})

describe("classifyTransportError: by code, never by message", () => {
  const err = (code: string | undefined, message = "whatever") => Object.assign(new Error(message), { code })

  it.each([
    ["UND_ERR_SOCKET", false],
    ["ECONNRESET", false],
    ["ECONNREFUSED", false],
    ["EPIPE", false],
    ["UND_ERR_CONNECT_TIMEOUT", true],
    ["UND_ERR_HEADERS_TIMEOUT", true],
    ["UND_ERR_BODY_TIMEOUT", true],
  ])("%s is retryable (timeout: %s)", (code, timeout) => {
    expect(classifyTransportError(err(code))).toEqual({ code, retryable: true, timeout })
  })

  it.each(["UND_ERR_CLOSED", "UND_ERR_DESTROYED", "UND_ERR_INVALID_ARG", "UND_ERR_ABORTED"])(
    "%s is not retryable",
    (code) => {
      expect(classifyTransportError(err(code))).toEqual({ code, retryable: false, timeout: false })
    }
  )

  it("a message that looks like a reset but has no code is not retried", () => {
    expect(classifyTransportError(err(undefined, "read ECONNRESET"))).toEqual({
      code: "UNKNOWN",
      retryable: false,
      timeout: false,
    })
  })

  it("looks through cause for a nested socket error", () => {
    const outer = Object.assign(new Error("fetch failed"), { cause: err("ECONNREFUSED") })
    expect(classifyTransportError(outer)).toEqual({ code: "ECONNREFUSED", retryable: true, timeout: false })
  })
})

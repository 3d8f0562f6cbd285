import { createRedactor, REDACTED, redactUrl } from "../redact"

describe("createRedactor", () => {
  it("replaces every occurrence of a registered secret", () => {
    const r = createRedactor(["s3cr3t-value"])
    expect(r.redactText("a s3cr3t-value b s3cr3t-value")).toBe(`a ${REDACTED} b ${REDACTED}`)
  })

  it("replaces the longer of two overlapping secrets whole", () => {
    const r = createRedactor(["abcd", "abcdefgh"])
    expect(r.redactText("xabcdefghx")).toBe(`x${REDACTED}x`)
  })

  it("ignores secrets too short to be one, and undefined", () => {
    const r = createRedactor(["ab", undefined])
    expect(r.redactText("ab cd")).toBe("ab cd")
  })

  it("remembers only the 16 most recent tokens", () => {
    const r = createRedactor()
    for (let i = 0; i < 17; i++) r.addToken(`token-number-${String(i).padStart(2, "0")}`)
    expect(r.redactText("token-number-00")).toBe("token-number-00")
    expect(r.redactText("token-number-01 token-number-16")).toBe(`${REDACTED} ${REDACTED}`)
  })

  it("scrubs JWTs and long bearer credentials it was never told about, not prose", () => {
    const r = createRedactor()
    expect(r.redactText("got eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature_ here")).toBe(`got ${REDACTED} here`)
    expect(r.redactText("Authorization: Bearer abcdefghijklmnopqrstuvwxyz")).toBe(`Authorization: Bearer ${REDACTED}`)
    expect(r.redactText("a Bearer token is required")).toBe("a Bearer token is required")
  })

  it("redactValue copies deeply, redacting strings and secret-looking keys whatever their case or separator", () => {
    const r = createRedactor(["my-client-secret"])
    const input = {
      Authorization: "Basic xyz",
      "Client-Secret": 42,
      accessToken: { deep: true },
      list: ["my-client-secret", 7, null],
      keep: "payments",
    }
    const out = r.redactValue(input)
    expect(out).toEqual({
      Authorization: REDACTED,
      "Client-Secret": REDACTED,
      accessToken: REDACTED,
      list: [REDACTED, 7, null],
      keep: "payments",
    })
    expect(input.list[0]).toBe("my-client-secret")
  })

  it("treats channel and scope as credentials (spec 5.1): values and keys are redacted", () => {
    const r = createRedactor(["sandbox-channel-xyz", "payments.write"])
    expect(r.redactText('channel "sandbox-channel-xyz" with scope payments.write refused')).toBe(
      `channel "${REDACTED}" with scope ${REDACTED} refused`
    )
    expect(r.redactValue({ channel: "anything", scope: "anything", client_id: "anything" })).toEqual({
      channel: REDACTED,
      scope: REDACTED,
      client_id: REDACTED,
    })
  })

  it("redactValue survives cycles", () => {
    const r = createRedactor()
    const a: Record<string, unknown> = { x: 1 }
    a.self = a
    expect(r.redactValue(a)).toEqual({ x: 1, self: "[Circular]" })
  })
})

describe("redactUrl", () => {
  it.each([
    ["user and password", "https://shop:pa55word@auth.example.pt/oauth", "https://***:***@auth.example.pt/oauth"],
    ["a password that contains @", "https://shop:p@ss@auth.example.pt/oauth", "https://***:***@auth.example.pt/oauth"],
    ["a user alone (a token as user name)", "https://tok3n-value@auth.example.pt/", "https://***@auth.example.pt/"],
    [
      "every query value, keys kept",
      "https://pay.example.pt/v2?token=abc123&key=k&env=sandbox",
      "https://pay.example.pt/v2?token=***&key=***&env=***",
    ],
    ["a bare query value", "https://pay.example.pt/v2?abc123secret", "https://pay.example.pt/v2?***"],
    ["a fragment", "https://pay.example.pt/cb#access_token=abc", "https://pay.example.pt/cb#***"],
    [
      "all at once",
      "http://u:p@127.0.0.1:4010/auth?client_secret=s#frag",
      "http://***:***@127.0.0.1:4010/auth?client_secret=***#***",
    ],
    [
      "a path with a query",
      "/dpm/hub-payment-info/{payment_id}?apikey=k1",
      "/dpm/hub-payment-info/{payment_id}?apikey=***",
    ],
    ["an empty value, left empty", "https://pay.example.pt/v2?debug=&x=1", "https://pay.example.pt/v2?debug=&x=***"],
  ])("hides %s", (_name, url, expected) => {
    expect(redactUrl(url)).toBe(expected)
  })

  it.each([
    "https://pay.example.pt/dpm/payments-gwproxy/v2/payments",
    "http://localhost:4010/backoffice",
    "/dpm/payments-gwproxy/v2/payments/cancel",
  ])("leaves a URL without credentials or query unchanged: %s", (url) => {
    expect(redactUrl(url)).toBe(url)
  })
})

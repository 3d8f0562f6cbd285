import { resolveOptions, SANDBOX_DEFAULT_URLS } from ".."

const SECRET = "obviously-fake-secret-value"
function messageOf(fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    return String(error)
  }
  throw new Error("expected a throw")
}

const base = { clientId: "fake-client-id", clientSecret: SECRET }

describe("provider options", () => {
  it("defaults to the local sandbox with T1 and D+7 references", () => {
    const options = resolveOptions(base, {})
    expect(options).toMatchObject({
      environment: "sandbox",
      tokenInterface: "t1",
      ...SANDBOX_DEFAULT_URLS,
      expiryDays: 7,
      maxRetries: 2,
    })
  })

  it("takes every unset option from its REFPAY_* environment variable, numbers included", () => {
    const options = resolveOptions(
      {},
      {
        REFPAY_CLIENT_ID: "env-client",
        REFPAY_CLIENT_SECRET: SECRET,
        REFPAY_TOKEN_INTERFACE: "t2",
        REFPAY_CHANNEL: "fake-channel",
        REFPAY_SCOPE: "payments",
        REFPAY_EXPIRY_DAYS: "3",
        REFPAY_SANDBOX_HOSTS: "refpay.test.internal, other.example",
        REFPAY_PAYMENTS_URL: "http://refpay.test.internal:8080",
        REFPAY_BACKOFFICE_URL: "http://localhost:4010/backoffice",
      }
    )
    expect(options).toMatchObject({
      clientId: "env-client",
      tokenInterface: "t2",
      expiryDays: 3,
      sandboxHosts: ["refpay.test.internal", "other.example"],
      paymentsUrl: "http://refpay.test.internal:8080",
    })
  })

  it("prefers medusa-config options over the environment", () => {
    expect(resolveOptions({ ...base, expiryDays: 5 }, { REFPAY_EXPIRY_DAYS: "9" }).expiryDays).toBe(5)
  })

  it("names the missing setting and its variable, never a secret's value", () => {
    expect(() => resolveOptions({ clientSecret: SECRET }, {})).toThrow(/clientId \(REFPAY_CLIENT_ID\)/)
    const message = messageOf(() => resolveOptions({ clientSecret: SECRET, expiryDays: -1 }, {}))
    expect(message).toMatch(/expiryDays \(REFPAY_EXPIRY_DAYS\)/)
    expect(message).not.toContain(SECRET)
  })

  // The settings the platform client no longer checks itself (lib/refpay/config.ts checks only its base URLs).
  it("names every wrong setting at once, each with its variable, and never echoes the secret", () => {
    const message = messageOf(() =>
      resolveOptions(
        {
          clientId: "",
          clientSecret: SECRET,
          t2AuthorizationForm: "basic" as never,
          connectTimeoutMs: 0,
          requestTimeoutMs: 0,
          bodyTimeoutMs: 0,
        },
        { REFPAY_MAX_RETRIES: "-1" }
      )
    )
    expect(message).toBe(
      "RefpayOptionsError: REFPAY provider options are invalid: " +
        "clientId (REFPAY_CLIENT_ID): set REFPAY_CLIENT_ID to the client_id issued at onboarding; " +
        't2AuthorizationForm (REFPAY_T2_AUTHORIZATION_FORM): set REFPAY_T2_AUTHORIZATION_FORM to "bearer" or "bare"; ' +
        "connectTimeoutMs (REFPAY_CONNECT_TIMEOUT_MS): Too small: expected number to be >=1; " +
        "requestTimeoutMs (REFPAY_REQUEST_TIMEOUT_MS): Too small: expected number to be >=1; " +
        "bodyTimeoutMs (REFPAY_BODY_TIMEOUT_MS): Too small: expected number to be >=1; " +
        "maxRetries (REFPAY_MAX_RETRIES): Too small: expected number to be >=0"
    )
    expect(message).not.toContain(SECRET)
    expect(() => resolveOptions({ clientId: "fake-client-id" }, {})).toThrow(/clientSecret \(REFPAY_CLIENT_SECRET\)/)
  })

  it("refuses a status path without its {payment_id} placeholder", () => {
    expect(() => resolveOptions({ ...base, paymentInfoPath: "/info" }, {})).toThrow(
      'paymentInfoPath (REFPAY_PAYMENT_INFO_PATH): Invalid string: must include "{payment_id}"'
    )
  })

  it("refuses T2 without channel and scope", () => {
    expect(() => resolveOptions({ ...base, tokenInterface: "t2" }, {})).toThrow(/REFPAY_CHANNEL and REFPAY_SCOPE/)
  })

  it("refuses sandbox URLs in production and production URLs in the sandbox", () => {
    const production = { ...base, environment: "production" as const, webhookSecret: "a-long-fake-webhook-secret" }
    expect(() =>
      resolveOptions(
        { ...production, authUrl: "http://localhost:4010/auth", paymentsUrl: "https://pay.example.com" },
        {}
      )
    ).toThrow(/authUrl \(REFPAY_AUTH_URL\) is http:\/\/localhost:4010.*production/)
    expect(() =>
      resolveOptions(
        { ...production, authUrl: "https://auth.sandbox.example.com", paymentsUrl: "https://pay.example.com" },
        {}
      )
    ).toThrow(/sandbox or non-HTTPS/)
    expect(() => resolveOptions({ ...base, paymentsUrl: "https://pay.example.com" }, {})).toThrow(
      /not a sandbox host.*REFPAY_SANDBOX_HOSTS/
    )
    expect(
      resolveOptions({ ...production, authUrl: "https://auth.example.com", paymentsUrl: "https://pay.example.com" }, {})
        .environment
    ).toBe("production")
  })

  it("requires the production URLs and a webhook secret in production", () => {
    expect(() => resolveOptions({ ...base, environment: "production" }, {})).toThrow(
      /webhookSecret \(REFPAY_WEBHOOK_SECRET\) is required in production.*paymentsUrl is required in production/
    )
  })

  it("refuses malformed numbers, enums and paths", () => {
    expect(() => resolveOptions({ ...base, tokenInterface: "t3" as never }, {})).toThrow(/REFPAY_TOKEN_INTERFACE/)
    expect(() => resolveOptions({ ...base }, { REFPAY_MAX_RETRIES: "many" })).toThrow(
      /maxRetries \(REFPAY_MAX_RETRIES\)/
    )
    expect(() => resolveOptions({ ...base, paymentInfoPath: "/info" }, {})).toThrow(/paymentInfoPath/)
  })
})

describe("several REFPAY accounts: each account reads its own REFPAY_<ACCOUNT>_* variables first", () => {
  const env = {
    REFPAY_CLIENT_ID: "shared-client-id",
    REFPAY_CLIENT_SECRET: "shared-client-secret",
    REFPAY_PORTO_CLIENT_ID: "porto-client-id",
    REFPAY_PORTO_WEBHOOK_SECRET: "porto-webhook-secret-0123456789",
    REFPAY_WEBHOOK_SECRET: "shared-webhook-secret-0123456789",
  }

  it("prefers the account's own variable and falls back to the unprefixed one", () => {
    const porto = resolveOptions({ account: "porto" }, env)
    expect(porto.clientId).toBe("porto-client-id")
    expect(porto.clientSecret).toBe("shared-client-secret")
    expect(porto.webhookSecret).toBe("porto-webhook-secret-0123456789")
    const lisboa = resolveOptions({ account: "lisboa" }, env)
    expect([lisboa.clientId, lisboa.webhookSecret]).toEqual(["shared-client-id", "shared-webhook-secret-0123456789"])
  })

  it("lets medusa-config options win over both, and refuses an account name that cannot be a variable name", () => {
    expect(resolveOptions({ account: "porto", clientId: "from-config" }, env).clientId).toBe("from-config")
    expect(() => resolveOptions({ account: "porto-norte" }, env)).toThrow(/account/)
  })
})

describe("the amounts a reference may be issued for (minAmount, maxAmount: REFPAY_MIN_AMOUNT, REFPAY_MAX_AMOUNT)", () => {
  const limits = (options: ReturnType<typeof resolveOptions>) => [options.minAmountCents, options.maxAmountCents]

  it("defaults to 1.00 to 99,999.99 EUR, in cents on the settings (the euro text is not kept beside them)", () => {
    const options = resolveOptions(base, {})
    expect(limits(options)).toEqual([100, 9_999_999])
    expect(options).not.toHaveProperty("minAmount")
    expect(options).not.toHaveProperty("maxAmount")
  })

  it.each([
    ["0.50", 50],
    ["0.5", 50],
    ["2", 200],
    [" 1.00 ", 100],
    ["0.01", 1],
    ["99999.99", 9_999_999],
  ])("reads %p EUR from the environment as %p cents", (euros, cents) => {
    expect(resolveOptions(base, { REFPAY_MIN_AMOUNT: euros, REFPAY_MAX_AMOUNT: euros }).minAmountCents).toBe(cents)
    expect(resolveOptions(base, { REFPAY_MAX_AMOUNT: euros, REFPAY_MIN_AMOUNT: "0.01" }).maxAmountCents).toBe(cents)
  })

  it("takes medusa-config's euros as text or as a number, before the environment", () => {
    const env = { REFPAY_MIN_AMOUNT: "5.00", REFPAY_MAX_AMOUNT: "10.00" }
    expect(limits(resolveOptions({ ...base, minAmount: "0.50", maxAmount: 250 as never }, env))).toEqual([50, 25_000])
  })

  it("reads an account's own REFPAY_<ACCOUNT>_MIN_AMOUNT first, then REFPAY_MIN_AMOUNT", () => {
    const env = { REFPAY_MIN_AMOUNT: "0.50", REFPAY_PORTO_MIN_AMOUNT: "2.00", REFPAY_PORTO_MAX_AMOUNT: "500" }
    expect(limits(resolveOptions({ ...base, account: "porto" }, env))).toEqual([200, 50_000])
    expect(limits(resolveOptions({ ...base, account: "lisboa" }, env))).toEqual([50, 9_999_999])
  })

  it.each(["0", "0.00", "-1", "0,50", "1.005", "1e3", "ten", "1 000.00", "1234567890"])(
    "refuses %p, naming the variable and how to write an amount",
    (euros) => {
      expect(() => resolveOptions(base, { REFPAY_MIN_AMOUNT: euros })).toThrow(
        'minAmount (REFPAY_MIN_AMOUNT): set REFPAY_MIN_AMOUNT to an amount in euros above zero, with a dot and at most two decimals (e.g. "0.50")'
      )
      expect(() => resolveOptions(base, { REFPAY_MAX_AMOUNT: euros })).toThrow(/maxAmount \(REFPAY_MAX_AMOUNT\): set/)
    }
  )

  it("refuses a minimum above the maximum, naming both, and accepts a range of one amount", () => {
    expect(() => resolveOptions(base, { REFPAY_MIN_AMOUNT: "10.00", REFPAY_MAX_AMOUNT: "9.99" })).toThrow(
      "REFPAY provider options are invalid: minAmount (REFPAY_MIN_AMOUNT) is 10.00 EUR, above maxAmount " +
        "(REFPAY_MAX_AMOUNT), 9.99 EUR: set REFPAY_MIN_AMOUNT at or below REFPAY_MAX_AMOUNT"
    )
    expect(limits(resolveOptions(base, { REFPAY_MIN_AMOUNT: "24.98", REFPAY_MAX_AMOUNT: "24.98" }))).toEqual([
      2498, 2498,
    ])
  })
})

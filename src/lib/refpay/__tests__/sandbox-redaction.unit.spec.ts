import { randomUUID } from "node:crypto"
import { inspect } from "node:util"
import { createRefpayClient, type RefpayClient } from "../client"
import type { RefpayClientConfig, RefpayLogger, RefpayTokenInterface } from "../config"
import {
  RefpayAuthenticationError,
  RefpayConnectionError,
  RefpayError,
  RefpayNotFoundError,
  RefpayResponseError,
  RefpayTimeoutError,
} from "../errors"
import {
  CREATE_PATH,
  DEFAULT_CREDS,
  failure,
  INFO_PREFIX,
  newPayment,
  recordingDispatcher,
  tokenPath,
  useSandboxSuite,
} from "./sandbox-fixture"

/**
 * No client secret and no token in anything an error or a log line carries, for both interfaces, including when the
 * platform echoes them back in an error body, when a transport error is thrown mid-call, and when a token answer
 * breaks its schema. Every error is rendered every way it can be: JSON.stringify, util.inspect (deep, hidden
 * properties shown), String(), its stack, its cause.
 */

const { fx, cleanup } = useSandboxSuite()

function renderings(error: unknown): string[] {
  const e = error as Error & { cause?: unknown; body?: unknown }
  return [
    JSON.stringify(e),
    inspect(e),
    inspect(e, { depth: Infinity, showHidden: true }),
    String(e),
    e.stack ?? "",
    inspect(e.cause, { depth: Infinity, showHidden: true }),
    JSON.stringify(e.body) ?? "",
    e.message,
  ]
}

function expectClean(texts: string[], secrets: string[]): void {
  for (const text of texts) {
    for (const secret of secrets) expect(text).not.toContain(secret)
  }
}

function setup(iface: RefpayTokenInterface, overrides: Partial<RefpayClientConfig> = {}) {
  const rec = recordingDispatcher()
  const lines: string[] = []
  const logger: RefpayLogger = {
    debug: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  }
  const client: RefpayClient = createRefpayClient(
    fx.config(iface, { dispatcher: rec.dispatcher, logger, ...overrides })
  )
  cleanup(() => client.close(), rec.close)
  const tokens = () => rec.authorizations.map((a) => a.replace(/^Bearer /, ""))
  return { client, lines, tokens }
}

describe.each(["t1", "t2"] as const)("%s: secrets and tokens never leave in an error or a log line", (iface) => {
  it("wrong secret: the 401 error does not show the configured secret", async () => {
    const wrongSecret = "wrong-secret-4f1c9a7e"
    const { client, lines } = setup(iface, { clientSecret: wrongSecret })
    const error = await failure<RefpayAuthenticationError>(client.createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayAuthenticationError)
    expectClean([...renderings(error), ...lines], [wrongSecret])
  })

  it("a platform body echoing the secret, the token and the Authorization header is scrubbed", async () => {
    const { client, lines, tokens } = setup(iface, { retries: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } })
    const notFound = await failure<RefpayNotFoundError>(client.getPayment(randomUUID()))
    expect(notFound).toBeInstanceOf(RefpayNotFoundError)
    const [token] = tokens()
    expect(token).toMatch(/^eyJ/)

    const echo = `client_secret=${DEFAULT_CREDS.clientSecret} token=${token} authorization=Bearer ${token}`
    await fx.addFault({
      path: CREATE_PATH,
      method: "POST",
      status: 401,
      count: 2,
      body: {
        status_code: 401,
        name: "Unauthorized",
        message: echo,
        details: [{ status: "DENIED", error_code: "GENERIC-401", description: echo, description_detail: echo }],
        headers: { authorization: `Bearer ${token}`, client_secret: DEFAULT_CREDS.clientSecret },
      },
    })
    const error = await failure<RefpayAuthenticationError>(client.createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayAuthenticationError)
    expect(error.message).toBe(
      "REFPAY create payment failed (401 Unauthorized): client_secret=[REDACTED] token=[REDACTED] authorization=Bearer [REDACTED]"
    )
    expect((error.body as { headers: unknown }).headers).toEqual({
      authorization: "[REDACTED]",
      client_secret: "[REDACTED]",
    })
    // The forced refresh issued a second token; neither may appear anywhere.
    const all = tokens()
    expect(new Set(all).size).toBe(2)
    expectClean([...renderings(error), ...renderings(notFound), ...lines], [DEFAULT_CREDS.clientSecret, ...all])
    expect(lines.some((l) => l.includes("token refused (401)"))).toBe(true)
  })

  it("a timeout and a dropped connection mid-call carry no secret or token", async () => {
    const { client, lines, tokens } = setup(iface, {
      timeouts: { headersMs: 200 },
      retries: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 },
    })
    const created = await client.createPayment(newPayment())
    await fx.addFault({ path: INFO_PREFIX, delay_ms: 2500, count: 2 })
    const timeout = await failure<RefpayTimeoutError>(client.getPayment(created.paymentId))
    expect(timeout).toBeInstanceOf(RefpayTimeoutError)
    await fx.addFault({ path: CREATE_PATH, method: "POST", reset: true, count: 2 })
    const dropped = await failure<RefpayConnectionError>(client.createPayment(newPayment()))
    expect(dropped).toBeInstanceOf(RefpayConnectionError)
    expectClean([...renderings(timeout), ...renderings(dropped), ...lines], [DEFAULT_CREDS.clientSecret, ...tokens()])
  }, 10_000)

  it("a token answer that breaks its schema does not show the token it carried", async () => {
    const leaked = "opaque-token-value-7d3e2b1a9c"
    await fx.addFault({
      path: tokenPath(iface),
      status: 200,
      body:
        iface === "t1"
          ? { access_token: leaked, token_type: "Bearer" }
          : { access_token: leaked, expires_in: "one hour" },
    })
    const { client, lines } = setup(iface)
    const error = await failure<RefpayResponseError>(client.getPayment(randomUUID()))
    expect(error).toBeInstanceOf(RefpayResponseError)
    expect(error.message).toMatch(
      new RegExp(`^REFPAY ${iface.toUpperCase()} token request returned an unexpected 200 body: expires_in: `)
    )
    expect((error.body as { access_token: string }).access_token).toBe("[REDACTED]")
    expectClean([...renderings(error), ...lines], [leaked, DEFAULT_CREDS.clientSecret])
  })
})

it("every error class the client throws is a RefpayError", async () => {
  const { client } = setup("t1")
  const error = await failure(client.getPayment(randomUUID()))
  expect(error).toBeInstanceOf(RefpayError)
})

import { randomUUID } from "node:crypto"
import { createRefpayClient } from "../client"
import { RefpayConnectionError, RefpayServerError, RefpayTimeoutError, RefpayValidationError } from "../errors"
import {
  CANCEL_PATH,
  CREATE_PATH,
  failure,
  INFO_PREFIX,
  newPayment,
  SandboxFixture,
  useSandboxSuite,
} from "./sandbox-fixture"

/**
 * Failures in transit against the sandbox: a 500 or a dropped connection after the platform did the work is retried
 * with the very same idempotency_key and request_id, and the platform ends up with exactly one payment (or one
 * refund). A 4xx is never repeated. A slow answer becomes RefpayTimeoutError.
 */

const { fx, client, cleanup } = useSandboxSuite()

describe.each(["t1", "t2"] as const)("%s retries", (iface) => {
  it("500 after the work, twice: retried with the same key; exactly one payment", async () => {
    await fx.addFault({ path: CREATE_PATH, method: "POST", status: 500, count: 2, when: "after" })
    const input = newPayment({ requestId: randomUUID() })
    const created = await client(iface).createPayment(input)
    expect(created.paymentId).toBe(input.paymentId)
    expect(created.status).toBe("WAITING")

    const attempts = await fx.requests(CREATE_PATH)
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 201])
    expect(attempts.map((a) => a.idempotency_key)).toEqual(Array(3).fill(input.idempotencyKey))
    expect(attempts.map((a) => a.request_id)).toEqual(Array(3).fill(input.requestId))
    const payments = await fx.payments()
    expect(payments).toHaveLength(1)
    expect(payments[0].payment_id).toBe(input.paymentId)
  })

  it("connection reset after the work: retried with the same key; exactly one payment", async () => {
    await fx.addFault({ path: CREATE_PATH, method: "POST", reset: true, count: 1, when: "after" })
    const input = newPayment()
    const created = await client(iface).createPayment(input)
    expect(created.paymentId).toBe(input.paymentId)

    const attempts = await fx.requests(CREATE_PATH)
    expect(attempts.map((a) => a.fault ?? "none")).toEqual(["reset", "none"])
    expect(attempts.map((a) => a.idempotency_key)).toEqual([input.idempotencyKey, input.idempotencyKey])
    expect(await fx.payments()).toHaveLength(1)
  })

  it("connection reset on every attempt: RefpayConnectionError after 3 attempts, still one payment", async () => {
    await fx.addFault({ path: CREATE_PATH, method: "POST", reset: true, count: 3, when: "after" })
    const input = newPayment({ requestId: randomUUID() })
    const error = await failure<RefpayConnectionError>(client(iface).createPayment(input))
    expect(error).toBeInstanceOf(RefpayConnectionError)
    expect(error).not.toBeInstanceOf(RefpayTimeoutError)
    expect(["UND_ERR_SOCKET", "ECONNRESET"]).toContain(error.code)
    expect(error.attempts).toBe(3)
    expect(error.requestId).toBe(input.requestId)
    expect(await fx.payments()).toHaveLength(1)
  })

  it("500 on every attempt: RefpayServerError with the platform body after 3 attempts", async () => {
    await fx.addFault({ path: CREATE_PATH, method: "POST", status: 500, count: 3 })
    const error = await failure<RefpayServerError>(client(iface).createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayServerError)
    expect(error.attempts).toBe(3)
    // The sandbox answers a payments 5xx with the T2 body (spec 7 row 500); the client reads either shape.
    expect(error.code).toBe("InternalServerError")
    expect(error.body).toMatchObject({ status_code: 500, details: [{ error_code: "GENERIC-500" }] })
    expect(await fx.payments()).toHaveLength(0)
  })

  it("a refund whose answer is lost is retried and refunds once", async () => {
    const c = client(iface)
    const created = await c.createPayment(newPayment({ amountCents: 3000 }))
    await fx.pay(created.paymentId)
    await fx.addFault({ path: CANCEL_PATH, reset: true, count: 1, when: "after" })
    const key = randomUUID()
    const refund = await c.cancelOrRefund({ paymentId: created.paymentId, amountCents: 1000, idempotencyKey: key })
    expect(refund.refundedAmountCents).toBe(1000)
    expect((await fx.requests(CANCEL_PATH)).map((a) => a.idempotency_key)).toEqual([key, key])
    expect((await c.getPayment(created.paymentId)).refundedAmountCents).toBe(1000)
  })

  it.each([400, 404, 409, 422, 429])("an injected %i on creation is not retried", async (status) => {
    await fx.addFault({ path: CREATE_PATH, method: "POST", status, count: 3 })
    const error = await failure<Error & { status?: number }>(client(iface).createPayment(newPayment()))
    expect(error.status).toBe(status)
    expect(await fx.requests(CREATE_PATH)).toHaveLength(1)
  })

  it("a real 400 from the platform is not retried", async () => {
    await fx.addFault({
      path: CREATE_PATH,
      method: "POST",
      status: 400,
      body: {
        error_code: "INVALID_REQUEST",
        message: "Invalid request",
        details: [{ field: "data.amount", message: "must be an integer" }],
      },
    })
    const error = await failure<RefpayValidationError>(client(iface).createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayValidationError)
    expect(error.message).toBe(
      "REFPAY create payment failed (400 INVALID_REQUEST): Invalid request (data.amount: must be an integer)"
    )
    expect(await fx.requests(CREATE_PATH)).toHaveLength(1)
  })
})

describe("timeouts and unreachable platform", () => {
  // undici's timers are coarse (about half a second), so the injected delay is several times the limit.
  it("a delayed answer beyond headersMs is RefpayTimeoutError UND_ERR_HEADERS_TIMEOUT", async () => {
    const c = client("t1", { timeouts: { headersMs: 200 }, retries: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 } })
    const created = await c.createPayment(newPayment())
    await fx.addFault({ path: INFO_PREFIX, delay_ms: 2500, count: 2 })
    const error = await failure<RefpayTimeoutError>(c.getPayment(created.paymentId))
    expect(error).toBeInstanceOf(RefpayTimeoutError)
    expect(error).toBeInstanceOf(RefpayConnectionError)
    expect(error.code).toBe("UND_ERR_HEADERS_TIMEOUT")
    expect(error.attempts).toBe(2)
    expect(error.message).toMatch(/^REFPAY get payment timed out \(UND_ERR_HEADERS_TIMEOUT\) after 2 attempts/)
  }, 10_000)

  it("a platform that refuses connections is RefpayConnectionError ECONNREFUSED after the retries", async () => {
    const gone = await SandboxFixture.start()
    const config = gone.config("t2")
    await gone.close()
    const c = createRefpayClient({
      ...config,
      authUrl: undefined,
      backofficeUrl: config.backofficeUrl!.replace("localhost", "127.0.0.1"),
    })
    cleanup(() => c.close())
    const error = await failure<RefpayConnectionError>(c.getPayment(randomUUID()))
    expect(error).toBeInstanceOf(RefpayConnectionError)
    expect(error.code).toBe("ECONNREFUSED")
    expect(error.operation).toBe("T2 token request")
    expect(error.attempts).toBe(3)
    expect(c.tokenRequests()).toBe(1)
  })
})

import { randomUUID } from "node:crypto"
import {
  RefpayAuthenticationError,
  RefpayError,
  RefpayPermissionError,
  RefpayServerError,
  RefpayValidationError,
} from "../errors"
import { CREATE_PATH, failure, LIMITED_CREDS, newPayment, tokenPath, useSandboxSuite } from "./sandbox-fixture"

/**
 * Spec section 7, row by row, for both token interfaces, against the sandbox: each platform failure becomes the
 * right error class carrying the platform's own body, and only 5xx is retried.
 */

const { fx, client } = useSandboxSuite()

describe("T1 (OAuth client credentials) errors of spec section 7", () => {
  it("400 invalid parameter (scope not granted) -> RefpayValidationError with the OAuth body, not retried", async () => {
    const error = await failure<RefpayValidationError>(client("t1", { scope: "admin" }).createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayValidationError)
    expect(error.status).toBe(400)
    expect(error.code).toBe("invalid_scope")
    // The scope is a credential (spec 5.1): the platform's echo of it is redacted like the secret.
    expect(error.body).toEqual({
      error: "invalid_scope",
      error_description: "scope [REDACTED] is not granted to this client",
    })
    expect(error.message).toBe(
      "REFPAY T1 token request failed (400 invalid_scope): scope [REDACTED] is not granted to this client"
    )
    expect(await fx.requests("/auth/token")).toHaveLength(1)
    expect(await fx.requests(CREATE_PATH)).toHaveLength(0)
  })

  it("401 invalid credentials -> RefpayAuthenticationError unauthorized_client, one token request", async () => {
    const c = client("t1", { clientSecret: "wrong-secret-value" })
    const error = await failure<RefpayAuthenticationError>(c.createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayAuthenticationError)
    expect(error.status).toBe(401)
    expect(error.code).toBe("unauthorized_client")
    expect(error.body).toEqual({ error: "unauthorized_client", error_description: "Invalid client credentials" })
    expect(error.message).toBe("REFPAY T1 token request failed (401 unauthorized_client): Invalid client credentials")
    expect((await fx.requests("/auth/token")).map((r) => r.status)).toEqual([401])
    expect(c.tokenRequests()).toBe(1)
  })

  it("403 on a payment call with a token whose scope lacks payments -> RefpayPermissionError with the T2 body", async () => {
    const c = client("t1", { clientId: LIMITED_CREDS.clientId, clientSecret: LIMITED_CREDS.clientSecret })
    const error = await failure<RefpayPermissionError>(c.createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayPermissionError)
    expect(error.status).toBe(403)
    expect(error.code).toBe("Forbidden")
    expect(error.body).toEqual({
      status_code: 403,
      name: "Forbidden",
      message: "Forbidden",
      details: [
        {
          status: "DENIED",
          error_code: "GENERIC-403",
          description: "Insufficient scope",
          description_detail: 'scope "payments" is required for this resource',
        },
      ],
    })
    // A 403 is not a token problem: no refresh, no repeat.
    expect((await fx.requests(CREATE_PATH)).map((r) => r.status)).toEqual([403])
    expect(c.tokenRequests()).toBe(1)
  })

  it("500 -> retried, then RefpayServerError with the OAuth body after 3 attempts", async () => {
    await fx.addFault({ path: "/auth/token", status: 500, count: 3 })
    const error = await failure<RefpayServerError>(client("t1").createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayServerError)
    expect(error.status).toBe(500)
    expect(error.code).toBe("server_error")
    expect(error.attempts).toBe(3)
    expect(error.body).toEqual({ error: "server_error", error_description: "Injected fault" })
    expect((await fx.requests("/auth/token")).map((r) => r.status)).toEqual([500, 500, 500])
  })

  it("500 twice, then success: the retry recovers and the payment is made", async () => {
    await fx.addFault({ path: "/auth/token", status: 500, count: 2 })
    const c = client("t1")
    const created = await c.createPayment(newPayment())
    expect(created.status).toBe("WAITING")
    expect((await fx.requests("/auth/token")).map((r) => r.status)).toEqual([500, 500, 200])
    expect(c.tokenRequests()).toBe(1)
  })
})

describe("T2 (back-office) errors of spec section 7", () => {
  it("400 invalid header -> RefpayValidationError HeaderValidation naming the header", async () => {
    const error = await failure<RefpayValidationError>(
      client("t2", { channel: "bad channel" }).createPayment(newPayment())
    )
    expect(error).toBeInstanceOf(RefpayValidationError)
    expect(error.status).toBe(400)
    expect(error.code).toBe("HeaderValidation")
    expect(error.body).toEqual({
      status_code: 400,
      name: "HeaderValidation",
      message: "Bad Request",
      details: [
        {
          status: "DENIED",
          error_code: "GENERIC-400",
          description: "Invalid header",
          description_detail: "channel header is invalid",
        },
      ],
    })
    expect(error.message).toBe("REFPAY T2 token request failed (400 HeaderValidation): channel header is invalid")
    expect(await fx.requests("/backoffice/v1/token")).toHaveLength(1)
  })

  it("401 invalid credentials -> RefpayAuthenticationError Unauthorized GENERIC-401", async () => {
    const c = client("t2", { clientSecret: "wrong-secret-value" })
    const error = await failure<RefpayAuthenticationError>(c.createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayAuthenticationError)
    expect(error.status).toBe(401)
    expect(error.code).toBe("Unauthorized")
    expect(error.body).toEqual({
      status_code: 401,
      name: "Unauthorized",
      message: "Unauthorized",
      details: [
        {
          status: "DENIED",
          error_code: "GENERIC-401",
          description: "Invalid credentials",
          description_detail: "INVALID_CREDENTIALS",
        },
      ],
    })
    expect((await fx.requests("/backoffice/v1/token")).map((r) => r.status)).toEqual([401])
  })

  it("403 scope not granted at the token endpoint -> RefpayPermissionError Forbidden GENERIC-403", async () => {
    const c = client("t2", {
      clientId: LIMITED_CREDS.clientId,
      clientSecret: LIMITED_CREDS.clientSecret,
      scope: "payments",
    })
    const error = await failure<RefpayPermissionError>(c.createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayPermissionError)
    expect(error.status).toBe(403)
    expect(error.code).toBe("Forbidden")
    expect((error.body as { details: { error_code: string; description_detail: string }[] }).details).toEqual([
      {
        status: "DENIED",
        error_code: "GENERIC-403",
        description: "Scope not granted",
        description_detail: 'scope "[REDACTED]" is not granted to this client',
      },
    ])
    expect(error.message).toBe(
      'REFPAY T2 token request failed (403 Forbidden): scope "[REDACTED]" is not granted to this client'
    )
    expect((await fx.requests("/backoffice/v1/token")).map((r) => r.status)).toEqual([403])
  })

  it("403 on a payment call with a reports-only T2 token -> RefpayPermissionError", async () => {
    const c = client("t2", {
      clientId: LIMITED_CREDS.clientId,
      clientSecret: LIMITED_CREDS.clientSecret,
      scope: "reports",
    })
    const error = await failure<RefpayPermissionError>(c.getPayment(randomUUID()))
    expect(error).toBeInstanceOf(RefpayPermissionError)
    expect(error.message).toBe(
      'REFPAY get payment failed (403 Forbidden): scope "payments" is required for this resource'
    )
  })

  it("500 -> retried, then RefpayServerError with the T2 body", async () => {
    await fx.addFault({ path: "/backoffice/v1/token", status: 500, count: 3 })
    const error = await failure<RefpayServerError>(client("t2").createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayServerError)
    expect(error.code).toBe("InternalServerError")
    expect(error.attempts).toBe(3)
    expect(error.body).toEqual({
      status_code: 500,
      name: "InternalServerError",
      message: "Internal Server Error",
      details: [
        {
          status: "DENIED",
          error_code: "GENERIC-500",
          description: "Internal Server Error",
          description_detail: "INJECTED_FAULT",
        },
      ],
    })
    expect((await fx.requests("/backoffice/v1/token")).map((r) => r.status)).toEqual([500, 500, 500])
  })

  it("500 once, then success", async () => {
    await fx.addFault({ path: "/backoffice/v1/token", status: 500, count: 1 })
    const created = await client("t2").createPayment(newPayment())
    expect(created.status).toBe("WAITING")
    expect((await fx.requests("/backoffice/v1/token")).map((r) => r.status)).toEqual([500, 200])
  })
})

describe.each(["t1", "t2"] as const)("%s: the client never repeats a 4xx token answer", (iface) => {
  it.each([400, 401, 403])("injected %i -> exactly one token request", async (status) => {
    await fx.addFault({ path: tokenPath(iface), status, count: 5 })
    const error = await failure<RefpayError>(client(iface).getPayment(randomUUID()))
    expect(error).toBeInstanceOf(RefpayError)
    expect(error.status).toBe(status)
    expect(await fx.requests(tokenPath(iface))).toHaveLength(1)
  })
})

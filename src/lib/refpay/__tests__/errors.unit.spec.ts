import { inspect } from "node:util"
import {
  createApiError,
  createResponseError,
  createTransportError,
  errorClassForStatus,
  RefpayAuthenticationError,
  RefpayConfigError,
  RefpayConflictError,
  RefpayConnectionError,
  RefpayError,
  RefpayNotFoundError,
  RefpayPermissionError,
  RefpayRateLimitError,
  RefpayResponseError,
  RefpayServerError,
  RefpayTimeoutError,
  RefpayValidationError,
  summarizeErrorBody,
} from "../errors"
import { createRedactor } from "../redact"

const SECRET = "very-secret-client-secret"
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
const OPAQUE_TOKEN = "opaque-token-value-1234567890"

function everyRendering(error: Error): string {
  return [
    JSON.stringify(error),
    inspect(error),
    inspect(error, { depth: 10, showHidden: true }),
    String(error),
    error.stack ?? "",
    JSON.stringify((error as RefpayError).body),
    inspect((error as { cause?: unknown }).cause),
  ].join("\n")
}

describe("errorClassForStatus picks one class per status", () => {
  it.each([
    [400, RefpayValidationError],
    [401, RefpayAuthenticationError],
    [403, RefpayPermissionError],
    [404, RefpayNotFoundError],
    [409, RefpayConflictError],
    [429, RefpayRateLimitError],
    [500, RefpayServerError],
    [502, RefpayServerError],
    [503, RefpayServerError],
  ])("%i -> %p", (status, cls) => {
    expect(errorClassForStatus(status)).toBe(cls)
  })

  it("an unlisted 4xx is a plain RefpayError", () => {
    expect(errorClassForStatus(422)).toBe(RefpayError)
  })
})

describe("every error class carries its own name", () => {
  const init = { message: "boom", code: "X" }
  it.each([
    ["RefpayError", new RefpayError(init)],
    ["RefpayValidationError", new RefpayValidationError(init)],
    ["RefpayAuthenticationError", new RefpayAuthenticationError(init)],
    ["RefpayPermissionError", new RefpayPermissionError(init)],
    ["RefpayNotFoundError", new RefpayNotFoundError(init)],
    ["RefpayConflictError", new RefpayConflictError(init)],
    ["RefpayRateLimitError", new RefpayRateLimitError(init)],
    ["RefpayServerError", new RefpayServerError(init)],
    ["RefpayConnectionError", new RefpayConnectionError(init)],
    ["RefpayTimeoutError", new RefpayTimeoutError(init)],
    ["RefpayResponseError", new RefpayResponseError({ ...init, issues: [] })],
    ["RefpayConfigError", new RefpayConfigError("boom")],
  ])("%s: in name, stack, String() and toJSON()", (name, error) => {
    expect(error.name).toBe(name)
    expect(error.stack!.startsWith(`${name}: boom`)).toBe(true)
    expect(String(error)).toBe(`${name}: boom`)
    expect(error.toJSON().name).toBe(name)
  })
})

describe("summarizeErrorBody reads all three platform shapes", () => {
  it("T1 OAuth body: error and error_description", () => {
    expect(summarizeErrorBody({ error: "invalid_request", error_description: "grant_type is required" })).toEqual({
      shape: "t1",
      code: "invalid_request",
      detail: "grant_type is required",
    })
  })

  it("T2 body: name and every description_detail", () => {
    const body = {
      status_code: 400,
      name: "HeaderValidation",
      message: "Bad Request",
      details: [
        {
          status: "DENIED",
          error_code: "GENERIC-400",
          description: "Bad Request",
          description_detail: "header 'channel' is required",
        },
        {
          status: "DENIED",
          error_code: "GENERIC-400",
          description: "Bad Request",
          description_detail: "body field 'login' is required",
        },
      ],
    }
    expect(summarizeErrorBody(body)).toEqual({
      shape: "t2",
      code: "HeaderValidation",
      detail: "header 'channel' is required; body field 'login' is required",
    })
  })

  it("T2 body without details falls back to message", () => {
    expect(
      summarizeErrorBody({ status_code: 500, name: "InternalServerError", message: "Internal Server Error" })
    ).toEqual({
      shape: "t2",
      code: "InternalServerError",
      detail: "Internal Server Error",
    })
  })

  it("payments body: error_code, message and field details", () => {
    const body = {
      error_code: "INVALID_REQUEST",
      message: "Invalid request",
      details: [{ field: "data.amount", message: "must be an integer" }],
    }
    expect(summarizeErrorBody(body)).toEqual({
      shape: "payments",
      code: "INVALID_REQUEST",
      detail: "Invalid request (data.amount: must be an integer)",
    })
  })

  it("text body is collapsed and cut", () => {
    const summary = summarizeErrorBody(`<html>\n  <body>${"x".repeat(500)}</body></html>`)
    expect(summary.shape).toBe("unknown")
    expect(summary.code).toBeUndefined()
    expect(summary.detail!.length).toBe(201)
  })

  it("empty body has no code and no detail", () => {
    expect(summarizeErrorBody("")).toEqual({ shape: "unknown" })
  })
})

describe("createApiError", () => {
  it("builds the T2 header message of the example and keeps the platform body", () => {
    const body = {
      status_code: 400,
      name: "HeaderValidation",
      message: "Bad Request",
      details: [
        {
          status: "DENIED",
          error_code: "GENERIC-400",
          description: "Bad Request",
          description_detail: "header 'channel' is required",
        },
      ],
    }
    const error = createApiError({ operation: "T2 token request", status: 400, body })
    expect(error).toBeInstanceOf(RefpayValidationError)
    expect(error).toBeInstanceOf(RefpayError)
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe("RefpayValidationError")
    expect(error.message).toBe("REFPAY T2 token request failed (400 HeaderValidation): header 'channel' is required")
    expect(error.status).toBe(400)
    expect(error.code).toBe("HeaderValidation")
    expect(error.body).toEqual(body)
    expect(error.stack!.startsWith("RefpayValidationError: REFPAY T2 token request failed")).toBe(true)
  })

  it("falls back to HTTP_<status> when the body names no code", () => {
    const error = createApiError({ operation: "T1 token request", status: 500, body: "", attempts: 3 })
    expect(error).toBeInstanceOf(RefpayServerError)
    expect(error.code).toBe("HTTP_500")
    expect(error.message).toBe("REFPAY T1 token request failed (500 HTTP_500)")
    expect(error.attempts).toBe(3)
  })

  it("carries the request id", () => {
    const error = createApiError({
      operation: "create payment",
      status: 409,
      body: { error_code: "IDEMPOTENCY_KEY_REUSED", message: "key reused", details: [] },
      requestId: "req-1",
    })
    expect(error).toBeInstanceOf(RefpayConflictError)
    expect(error.requestId).toBe("req-1")
    expect(error.toJSON()).toEqual({
      name: "RefpayConflictError",
      message: "REFPAY create payment failed (409 IDEMPOTENCY_KEY_REUSED): key reused",
      code: "IDEMPOTENCY_KEY_REUSED",
      status: 409,
      requestId: "req-1",
      operation: "create payment",
      attempts: undefined,
      body: { error_code: "IDEMPOTENCY_KEY_REUSED", message: "key reused", details: [] },
      cause: undefined,
    })
  })
})

describe("redaction: no secret or token in any rendering of an error", () => {
  const redactor = createRedactor([SECRET])
  redactor.addToken(OPAQUE_TOKEN)

  it("API error whose body echoes the secret, a token and an Authorization header", () => {
    const body = {
      error: "unauthorized_client",
      error_description: `client_secret ${SECRET} is wrong; token ${OPAQUE_TOKEN}; Bearer ${TOKEN}`,
      echo: {
        authorization: `Bearer ${OPAQUE_TOKEN}`,
        client_secret: "anything",
        access_token: "abc",
        nested: [SECRET],
      },
    }
    const error = createApiError({ operation: "T1 token request", status: 401, body, redactor })
    const text = everyRendering(error)
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain(OPAQUE_TOKEN)
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain("eyJ")
    expect(text).toContain("[REDACTED]")
    expect(error.message).toBe(
      "REFPAY T1 token request failed (401 unauthorized_client): client_secret [REDACTED] is wrong; token [REDACTED]; Bearer [REDACTED]"
    )
    expect(error.body).toEqual({
      error: "unauthorized_client",
      error_description: "client_secret [REDACTED] is wrong; token [REDACTED]; Bearer [REDACTED]",
      echo: {
        authorization: "[REDACTED]",
        client_secret: "[REDACTED]",
        access_token: "[REDACTED]",
        nested: ["[REDACTED]"],
      },
    })
  })

  it("transport error whose cause message holds the secret keeps only a sanitized cause", () => {
    const cause = Object.assign(new Error(`socket closed while sending ${SECRET}`), {
      code: "UND_ERR_SOCKET",
      socket: { headers: { authorization: `Bearer ${OPAQUE_TOKEN}` } },
    })
    const error = createTransportError({
      operation: "create payment",
      code: "UND_ERR_SOCKET",
      timeout: false,
      cause,
      attempts: 3,
      redactor,
    })
    expect(error).toBeInstanceOf(RefpayConnectionError)
    expect(error).not.toBeInstanceOf(RefpayTimeoutError)
    expect(error.message).toBe(
      "REFPAY create payment could not complete (UND_ERR_SOCKET) after 3 attempts: socket closed while sending [REDACTED]"
    )
    const text = everyRendering(error)
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain(OPAQUE_TOKEN)
    expect((error.cause as { socket?: unknown }).socket).toBeUndefined()
    expect((error.cause as { code?: string }).code).toBe("UND_ERR_SOCKET")
  })

  it("timeout codes give a RefpayTimeoutError, which is also a connection error", () => {
    const error = createTransportError({
      operation: "get payment",
      code: "UND_ERR_HEADERS_TIMEOUT",
      timeout: true,
      cause: Object.assign(new Error("Headers Timeout Error"), { code: "UND_ERR_HEADERS_TIMEOUT" }),
      attempts: 1,
    })
    expect(error).toBeInstanceOf(RefpayTimeoutError)
    expect(error).toBeInstanceOf(RefpayConnectionError)
    expect(error.message).toBe(
      "REFPAY get payment timed out (UND_ERR_HEADERS_TIMEOUT) after 1 attempt: Headers Timeout Error"
    )
  })

  it("response error on a token body never shows the token", () => {
    const error = createResponseError({
      operation: "T1 token request",
      status: 200,
      body: { access_token: OPAQUE_TOKEN, expires_in: "soon" },
      issues: ["token_type: Invalid input: expected string, received undefined", "expires_in: Invalid input"],
      redactor,
    })
    expect(error).toBeInstanceOf(RefpayResponseError)
    expect(error.code).toBe("INVALID_RESPONSE")
    expect(error.body).toEqual({ access_token: "[REDACTED]", expires_in: "soon" })
    expect(error.message).toBe(
      "REFPAY T1 token request returned an unexpected 200 body: token_type: Invalid input: expected string, received undefined; expires_in: Invalid input"
    )
    expect(everyRendering(error)).not.toContain(OPAQUE_TOKEN)
  })

  it("without a redactor, JWTs and secret-looking keys are still scrubbed", () => {
    const error = createApiError({
      operation: "get payment",
      status: 401,
      body: { name: "Unauthorized", message: `bad ${TOKEN}`, authorization: "x" },
    })
    expect(everyRendering(error)).not.toContain(TOKEN)
    expect(error.body).toEqual({ name: "Unauthorized", message: "bad [REDACTED]", authorization: "[REDACTED]" })
  })
})

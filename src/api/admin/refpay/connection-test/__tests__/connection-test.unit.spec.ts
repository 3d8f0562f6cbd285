import { execFileSync } from "node:child_process"
import fs from "node:fs"
import http from "node:http"
import https from "node:https"
import type { AddressInfo } from "node:net"
import net from "node:net"
import os from "node:os"
import path from "node:path"
import {
  REDACTED,
  RefpayAuthenticationError,
  RefpayConfigError,
  RefpayConflictError,
  RefpayConnectionError,
  RefpayError,
  RefpayNotFoundError,
  RefpayPermissionError,
  RefpayResponseError,
  RefpayServerError,
  RefpayTimeoutError,
  RefpayValidationError,
} from "../../../../../lib/refpay"
import { resolveOptions } from "../../../../../config"
import { diagnose, platformDetail, testRefpayConnection, type DiagnoseContext } from "../connection-test"
import { inEnglish, translatorOf } from "../../../../../../integration-tests/fixtures/connection-texts"
import { ptPT } from "../../../../../admin/i18n/pt-pt"
import { sayConnectionText } from "../../../../../admin/lib/server-texts"
import type { ConnectionText } from "../connection-texts"

const SECRET = "unit-client-secret-7d1c"
const context: DiagnoseContext = {
  environment: "production",
  tokenInterface: "t1",
  origin: "https://auth.example.test",
  connectTimeoutMs: 5000,
  requestTimeoutMs: 10000,
}
const tokenFailure = (ErrorClass: any, status: number | undefined, code: string, body?: unknown) =>
  new ErrorClass({ message: "x", code, status, operation: "T1 token request", body })
const paymentsFailure = (ErrorClass: any, status: number | undefined, code: string, body?: unknown) =>
  new ErrorClass({ message: "x", code, status, operation: "get payment", body })

/** One error of each kind the diagnosis tells apart, at either step. */
const ALL_FAILURES: RefpayError[] = [
  tokenFailure(RefpayAuthenticationError, 401, "unauthorized_client"),
  tokenFailure(RefpayValidationError, 400, "invalid_scope"),
  tokenFailure(RefpayPermissionError, 403, "Forbidden"),
  tokenFailure(RefpayValidationError, 400, "HeaderValidation"),
  paymentsFailure(RefpayPermissionError, 403, "Forbidden"),
  paymentsFailure(RefpayAuthenticationError, 401, "Unauthorized"),
  paymentsFailure(RefpayNotFoundError, 404, "HTTP_404"),
  paymentsFailure(RefpayServerError, 503, "HTTP_503"),
  paymentsFailure(RefpayConflictError, 409, "CONFLICT"),
  tokenFailure(RefpayConnectionError, undefined, "ECONNREFUSED"),
  tokenFailure(RefpayConnectionError, undefined, "EHOSTUNREACH"),
  tokenFailure(RefpayConnectionError, undefined, "ECONNRESET"),
  tokenFailure(RefpayConnectionError, undefined, "ENOTFOUND"),
  tokenFailure(RefpayConnectionError, undefined, "UNABLE_TO_VERIFY_LEAF_SIGNATURE"),
  tokenFailure(RefpayTimeoutError, undefined, "UND_ERR_CONNECT_TIMEOUT"),
  paymentsFailure(RefpayTimeoutError, undefined, "UND_ERR_HEADERS_TIMEOUT"),
  new RefpayResponseError({
    message: "x",
    code: "INVALID_RESPONSE",
    status: 200,
    operation: "T1 token request",
    issues: [],
  }),
  new RefpayConfigError("REFPAY_CLIENT_ID is missing"),
]
const inPortuguese = (text: ConnectionText | null) => text && sayConnectionText(translatorOf(ptPT), text)

describe("connection test diagnosis", () => {
  it.each([
    [
      "credentials refused at the token service",
      tokenFailure(RefpayAuthenticationError, 401, "unauthorized_client"),
      "token",
      "credentials_refused",
      /refused the shop's credentials \(401 unauthorized_client\)/,
    ],
    [
      "a scope the token service does not grant (T1)",
      tokenFailure(RefpayValidationError, 400, "invalid_scope"),
      "token",
      "scope_not_granted",
      /does not grant the requested scope/,
    ],
    [
      "a scope the token service does not grant (T2)",
      tokenFailure(RefpayPermissionError, 403, "Forbidden"),
      "token",
      "scope_not_granted",
      /403 Forbidden/,
    ],
    [
      "a token request refused as malformed",
      tokenFailure(RefpayValidationError, 400, "HeaderValidation"),
      "token",
      "request_refused",
      /refused the token request/,
    ],
    [
      "a scope that does not cover payments",
      paymentsFailure(RefpayPermissionError, 403, "Forbidden"),
      "payments",
      "scope_not_granted",
      /scope does not cover payments/,
    ],
    [
      "a token the payments host does not accept",
      paymentsFailure(RefpayAuthenticationError, 401, "Unauthorized"),
      "payments",
      "token_rejected_by_payments",
      /payments API refused it/,
    ],
    [
      "a 404 that is not the platform's",
      paymentsFailure(RefpayNotFoundError, 404, "HTTP_404"),
      "payments",
      "wrong_url",
      /without the platform's PAYMENT_NOT_FOUND/,
    ],
    [
      "a server error",
      paymentsFailure(RefpayServerError, 503, "HTTP_503"),
      "payments",
      "platform_error",
      /server error \(503 HTTP_503\)/,
    ],
    [
      "a refused connection",
      tokenFailure(RefpayConnectionError, undefined, "ECONNREFUSED"),
      "token",
      "host_unreachable",
      /nothing is listening there/,
    ],
    [
      "a host name that does not resolve",
      tokenFailure(RefpayConnectionError, undefined, "ENOTFOUND"),
      "token",
      "host_unreachable",
      /could not be found \(ENOTFOUND\)/,
    ],
    [
      "an untrusted certificate",
      tokenFailure(RefpayConnectionError, undefined, "UNABLE_TO_VERIFY_LEAF_SIGNATURE"),
      "token",
      "tls_error",
      /TLS.*UNABLE_TO_VERIFY_LEAF_SIGNATURE/,
    ],
    [
      "a certificate for another host",
      tokenFailure(RefpayConnectionError, undefined, "ERR_TLS_CERT_ALTNAME_INVALID"),
      "token",
      "tls_error",
      /does not match the host name/,
    ],
    [
      "an expired certificate",
      paymentsFailure(RefpayConnectionError, undefined, "CERT_HAS_EXPIRED"),
      "payments",
      "tls_error",
      /CERT_HAS_EXPIRED/,
    ],
    [
      "a connect timeout",
      tokenFailure(RefpayTimeoutError, undefined, "UND_ERR_CONNECT_TIMEOUT"),
      "token",
      "timeout",
      /within 5000 ms/,
    ],
    [
      "a silent server",
      paymentsFailure(RefpayTimeoutError, undefined, "UND_ERR_HEADERS_TIMEOUT"),
      "payments",
      "timeout",
      /did not answer within 10000 ms/,
    ],
  ])("reads %s", (_name, error, step, problem, summary) => {
    const diagnosis = diagnose(error, context)
    expect(diagnosis.step).toBe(step)
    expect(diagnosis.problem).toBe(problem)
    expect(inEnglish(diagnosis.summary)).toMatch(summary)
  })

  it("answers codes with values, never sentences: the admin says them in its language", () => {
    const refused = diagnose(tokenFailure(RefpayAuthenticationError, 401, "unauthorized_client"), context)
    expect(refused.summary).toEqual({ code: "credentials_refused", params: { reply: "401 unauthorized_client" } })
    expect(refused.hint).toEqual({
      code: "check_credentials",
      params: { credentials: "t1", environment_note: "production" },
    })
    expect(inPortuguese(refused.summary)).toBe(
      "O serviço de tokens recusou as credenciais da loja (401 unauthorized_client). Não foi emitido nenhum token."
    )
    expect(inPortuguese(refused.hint)).toBe(
      "Verifique REFPAY_CLIENT_ID e REFPAY_CLIENT_SECRET. As credenciais da sandbox não funcionam em produção: use as credenciais de produção atribuídas na adesão."
    )
    const unreachable = diagnose(tokenFailure(RefpayConnectionError, undefined, "ECONNREFUSED"), context)
    expect(unreachable.summary).toEqual({
      code: "nothing_listening",
      params: { service: "token", origin: "https://auth.example.test", code: "ECONNREFUSED" },
    })
    expect(inPortuguese(unreachable.summary)).toBe(
      "O serviço de tokens em https://auth.example.test está inacessível (ECONNREFUSED: nada está à escuta nesse endereço)."
    )
  })

  it.each(ALL_FAILURES.map((error) => [`${error.constructor.name} ${error.code}`, error] as const))(
    "says %s in English and Portuguese, every value it names filled in",
    (_name, error) => {
      for (const environment of ["sandbox", "production"] as const) {
        for (const tokenInterface of ["t1", "t2"] as const) {
          const diagnosis = diagnose(error, { ...context, environment, tokenInterface })
          for (const text of [diagnosis.summary, diagnosis.hint].filter((t) => t !== null)) {
            // translatorOf throws on a missing text or value.
            expect(inEnglish(text)).not.toMatch(/\{\{|undefined/)
            expect(inPortuguese(text)).not.toMatch(/\{\{|undefined/)
            expect(inPortuguese(text)).not.toBe(inEnglish(text))
          }
        }
      }
    }
  )

  it("reminds that sandbox credentials do not work in production, and the reverse", () => {
    const refused = tokenFailure(RefpayAuthenticationError, 401, "unauthorized_client")
    expect(inEnglish(diagnose(refused, context).hint)).toMatch(/Sandbox credentials do not work in production/)
    expect(inEnglish(diagnose(refused, { ...context, environment: "sandbox" }).hint)).toMatch(
      /Production credentials do not work in the sandbox/
    )
    expect(inEnglish(diagnose(refused, { ...context, tokenInterface: "t2" }).hint)).toMatch(
      /REFPAY_CHANNEL and REFPAY_SCOPE/
    )
  })

  it("passes on the platform's detail without any configured credential in it", () => {
    const body = {
      status_code: 403,
      name: "Forbidden",
      message: "Forbidden",
      details: [
        {
          status: "DENIED",
          error_code: "GENERIC-403",
          description: "Insufficient scope",
          description_detail: `client ${SECRET} lacks it`,
        },
      ],
    }
    const detail = platformDetail(paymentsFailure(RefpayPermissionError, 403, "Forbidden", body), [SECRET])
    expect(detail).toContain("GENERIC-403")
    expect(detail).toContain(REDACTED)
    expect(detail).not.toContain(SECRET)
    expect(platformDetail(tokenFailure(RefpayConnectionError, undefined, "ECONNREFUSED"), [SECRET])).toBeNull()
  })
})

/** A platform of our own on loopback, for the answers the sandbox never gives. */
function serve(server: http.Server | https.Server | net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)))
}
const close = (server: net.Server) => new Promise((resolve) => server.close(resolve))

function settingsFor(origin: string, extra: Record<string, string> = {}) {
  return resolveOptions(
    {},
    {
      REFPAY_ENVIRONMENT: "sandbox",
      REFPAY_AUTH_URL: `${origin}/auth`,
      REFPAY_PAYMENTS_URL: origin,
      REFPAY_CLIENT_ID: "unit-client-id",
      REFPAY_CLIENT_SECRET: SECRET,
      ...extra,
    }
  )
}

describe("connection test against a platform that misbehaves", () => {
  const token = JSON.stringify({ access_token: "eyJhbGciOiJub25lIn0.e30.", token_type: "Bearer", expires_in: 3600 })

  it("names a TLS failure when the platform's certificate is not trusted (a self-signed one)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "refpay-tls-"))
    try {
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-keyout",
          path.join(dir, "key.pem"),
          "-out",
          path.join(dir, "cert.pem"),
          "-days",
          "1",
          "-subj",
          "/CN=localhost",
        ],
        { stdio: "ignore" }
      )
      const server = https.createServer(
        { key: fs.readFileSync(path.join(dir, "key.pem")), cert: fs.readFileSync(path.join(dir, "cert.pem")) },
        (_req, res) => res.end(token)
      )
      const port = await serve(server)
      try {
        const result = await testRefpayConnection(settingsFor(`https://localhost:${port}`))
        expect(result).toMatchObject({
          ok: false,
          problem: "tls_error",
          steps: [{ step: "token", result: "failed", code: "DEPTH_ZERO_SELF_SIGNED_CERT" }, { result: "skipped" }],
        })
        expect(JSON.stringify(result)).not.toContain(SECRET)
      } finally {
        await close(server)
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("names a timeout when the token service accepts the connection and never answers", async () => {
    const sockets = new Set<net.Socket>()
    const server = net.createServer((socket) => sockets.add(socket))
    const port = await serve(server)
    try {
      const started = Date.now()
      const result = await testRefpayConnection(
        settingsFor(`http://127.0.0.1:${port}`, { REFPAY_REQUEST_TIMEOUT_MS: "300" })
      )
      expect(result).toMatchObject({
        ok: false,
        problem: "timeout",
        steps: [{ code: "UND_ERR_HEADERS_TIMEOUT" }, { result: "skipped" }],
      })
      expect(inEnglish(result.summary)).toMatch(/did not answer within 300 ms/)
      expect(Date.now() - started).toBeLessThan(3000)
    } finally {
      for (const socket of sockets) socket.destroy()
      await close(server)
    }
  })

  it("says the payments URL is probably wrong when a 404 is not the platform's PAYMENT_NOT_FOUND", async () => {
    const server = http.createServer((req, res) => {
      if (req.url === "/auth/token") return res.writeHead(200, { "content-type": "application/json" }).end(token)
      res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>")
    })
    const port = await serve(server)
    try {
      const result = await testRefpayConnection(settingsFor(`http://127.0.0.1:${port}`))
      expect(result).toMatchObject({
        ok: false,
        problem: "wrong_url",
        steps: [{ result: "ok" }, { result: "failed", http_status: 404 }],
      })
    } finally {
      await close(server)
    }
  })

  it("says the body is not the platform's when the token URL answers a web page", async () => {
    const server = http.createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html>login</html>")
    )
    const port = await serve(server)
    try {
      const result = await testRefpayConnection(settingsFor(`http://127.0.0.1:${port}`))
      expect(result).toMatchObject({
        ok: false,
        problem: "unexpected_response",
        steps: [{ step: "token", result: "failed" }, { result: "skipped" }],
      })
    } finally {
      await close(server)
    }
  })
})

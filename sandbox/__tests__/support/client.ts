import { randomUUID } from "node:crypto"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { Agent, request } from "undici"
import {
  DEFAULT_CREDENTIALS,
  startSandbox,
  type RunningSandbox,
  type SandboxCredential,
  type SandboxOptions,
} from "../../src"

/** One keep-alive agent per test file, closed in afterAll so nothing keeps jest alive. */
export const agent = new Agent({ keepAliveTimeout: 1_000 })

/** A suite's sandbox on a free port, with a T1 token of the main credential for its payment calls. */
export async function startWithToken(
  options: Partial<SandboxOptions> = {}
): Promise<{ sb: RunningSandbox; token: string }> {
  const sb = await startSandbox({ port: 0, ...options })
  return { sb, token: await t1Token(sb) }
}

/** The end of a suite (afterAll): closes its sandbox, then the keep-alive agent. */
export async function stopSandbox(sb: RunningSandbox): Promise<void> {
  await sb.close()
  await agent.close()
}

export interface Answer<T = any> {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: T
  text: string
}

export interface CallOptions {
  headers?: Record<string, string>
  /** Sent as JSON with Content-Type application/json (unless headers say otherwise). */
  json?: unknown
  /** Sent as is. */
  raw?: string | Buffer
  /** Sent form-encoded with the T1 content type. */
  form?: Record<string, string>
}

export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {}
): Promise<Answer<T>> {
  const headers: Record<string, string> = {}
  let body: string | Buffer | undefined
  if (options.json !== undefined) {
    headers["content-type"] = "application/json"
    body = JSON.stringify(options.json)
  } else if (options.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded"
    body = new URLSearchParams(options.form).toString()
  } else if (options.raw !== undefined) {
    body = options.raw
  }
  Object.assign(headers, options.headers)
  const res = await request(`${base}${path}`, { method: method as "GET", headers, body, dispatcher: agent })
  const text = await res.body.text()
  let parsed: unknown = text
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.statusCode, headers: res.headers, body: parsed as T, text }
}

export const [MAIN, LIMITED] = DEFAULT_CREDENTIALS

export function t1Form(c: SandboxCredential = MAIN): Record<string, string> {
  return { grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret }
}

export const T2_BODY = { branch: "", login: "", name: "", enrollment_number: "" }

export function t2Headers(c: SandboxCredential = MAIN, scope = c.scope): Record<string, string> {
  return { client_id: c.clientId, client_secret: c.clientSecret, channel: c.channel, scope }
}

/** The spec 2.4 error body (the T2 token service, the payments API's 401, 403 and 5xx) with one DENIED details entry. */
export function deniedBody(status: number, name: string, message: string, description: string, detail: string) {
  return {
    status_code: status,
    name,
    message,
    details: [{ status: "DENIED", error_code: `GENERIC-${status}`, description, description_detail: detail }],
  }
}

export async function t1Token(sb: RunningSandbox, c: SandboxCredential = MAIN): Promise<string> {
  const res = await call(sb.authUrl, "POST", "/token", { form: t1Form(c) })
  if (res.status !== 200) throw new Error(`T1 token failed: ${res.text}`)
  return res.body.access_token
}

export async function t2Token(sb: RunningSandbox, c: SandboxCredential = MAIN): Promise<string> {
  const res = await call(sb.backofficeUrl, "POST", "/v1/token", { headers: t2Headers(c), json: T2_BODY })
  if (res.status !== 200) throw new Error(`T2 token failed: ${res.text}`)
  return res.body.access_token
}

export const CREATE = "/dpm/payments-gwproxy/v2/payments"
export const CANCEL = "/dpm/payments-gwproxy/v2/payments/cancel"
export const STATUS = "/dpm/hub-payment-info/v1/payments/info/"

let orders = 0

/** A valid spec 2.5 request with fresh ids. */
export function paymentRequest(amount = 1999): any {
  return {
    idempotency_key: randomUUID(),
    request_id: randomUUID(),
    order_id: `order-${process.pid}-${++orders}`,
    data: {
      amount,
      currency: "EUR",
      payment: { payment_id: randomUUID(), payment_method: "CASH_PAYMENT", brand: "REFPAY" },
    },
  }
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` }
}

export async function createPayment(sb: RunningSandbox, token: string, body = paymentRequest()): Promise<Answer> {
  return call(sb.paymentsUrl, "POST", CREATE, { headers: bearer(token), json: body })
}

export function cancelRequest(paymentId: string, amount: number): any {
  return { idempotency_key: randomUUID(), payment_id: paymentId, amount, payment_method: "CASH_PAYMENT" }
}

export async function control(sb: RunningSandbox, method: string, path: string, json?: unknown): Promise<Answer> {
  return call(sb.url, method, `/__sandbox${path}`, json === undefined ? {} : { json })
}

export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 3_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error("waitFor: timed out")
    await new Promise((r) => setTimeout(r, 10))
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export interface Received {
  at: number
  headers: http.IncomingHttpHeaders
  body: any
}

/** A tiny webhook receiver: records every POST and answers `respond(n)` (n = 1-based request count), optionally held. */
export async function startReceiver(respond: (n: number) => number = () => 204) {
  const received: Received[] = []
  let gate: Promise<void> | undefined
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      received.push({ at: Date.now(), headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) })
      res.statusCode = respond(received.length)
      if (gate) void gate.then(() => res.end())
      else res.end()
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return {
    url,
    received,
    setRespond(fn: (n: number) => number) {
      respond = fn
    },
    /** Hold every answer until the returned function is called: a receiver that hangs. */
    block(): () => void {
      let release = () => undefined as void
      gate = new Promise<void>((r) => (release = r))
      return () => {
        gate = undefined
        release()
      }
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r())
        server.closeAllConnections()
      }),
  }
}

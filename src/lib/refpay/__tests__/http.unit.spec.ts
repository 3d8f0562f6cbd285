import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { RefpayConnectionError, RefpayTimeoutError } from "../errors"
import { createHttpClient, httpTarget, type HttpClient } from "../http"
import { createRedactor } from "../redact"

/**
 * The HTTP choke point against a tiny loopback server whose every answer the test scripts: retries on 5xx and
 * dropped connections, none on 4xx, the same bytes on every attempt, timeouts, body parsing.
 */

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void

interface Seen {
  method?: string
  url?: string
  headers: IncomingMessage["headers"]
  body: string
}

let server: Server
let baseUrl: string
let handlers: Handler[]
let seen: Seen[]
let client: HttpClient
let clients: HttpClient[] = []
const logger = { debug: jest.fn(), info: jest.fn(), warn: jest.fn(), error: jest.fn() }

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      seen.push({ method: req.method, url: req.url, headers: req.headers, body })
      const handler = handlers.shift() ?? ((_q, _b, r) => r.writeHead(599).end())
      handler(req, body, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
  handlers = []
  seen = []
  jest.clearAllMocks()
  client = makeClient()
})

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()))
  clients = []
})

function makeClient(overrides: { maxRetries?: number; headersMs?: number; connections?: number } = {}): HttpClient {
  const created = createHttpClient({
    timeouts: { connectMs: 1000, headersMs: overrides.headersMs ?? 2000, bodyMs: 2000 },
    retries: { maxRetries: overrides.maxRetries ?? 2, baseDelayMs: 5, maxDelayMs: 20 },
    connections: overrides.connections ?? 4,
    random: () => 0.5,
    logger,
    redactor: createRedactor(["top-secret-value"]),
  })
  clients.push(created)
  return created
}

const json =
  (status: number, body: unknown): Handler =>
  (_q, _b, res) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
  }
const drop: Handler = (req) => req.socket.destroy()

const payload = JSON.stringify({ idempotency_key: "k-1", request_id: "r-1", note: "ação €" })

describe("http choke point", () => {
  it("returns status, lower-cased headers and parsed JSON", async () => {
    handlers.push((_q, _b, res) =>
      res.writeHead(201, { "Content-Type": "application/json", "X-Request-Id": "abc" }).end('{"a":"007"}')
    )
    const res = await client.send({
      operation: "op",
      method: "POST",
      url: `${baseUrl}/x/y?q=1`,
      headers: { "content-type": "application/json" },
      body: payload,
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ a: "007" })
    expect(res.headers["x-request-id"]).toBe("abc")
    expect(res.attempts).toBe(1)
    expect(seen[0].url).toBe("/x/y?q=1")
    expect(seen[0].headers["content-type"]).toBe("application/json")
    expect(seen[0].headers.accept).toBe("application/json")
  })

  it("sends to a target split once by httpTarget() exactly as to the same URL string", async () => {
    handlers.push(json(200, { n: 1 }), json(200, { n: 2 }))
    const target = httpTarget(`${baseUrl}/x/y?q=1`)
    expect(target).toEqual({ origin: baseUrl, path: "/x/y?q=1", logPath: "/x/y" })
    for (let i = 0; i < 2; i++) {
      await client.send({
        operation: "op",
        method: "POST",
        url: target,
        headers: { "content-type": "application/json" },
        body: payload,
      })
    }
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ["POST", "/x/y?q=1", payload],
      ["POST", "/x/y?q=1", payload],
    ])
    expect(logger.debug).toHaveBeenCalledWith("REFPAY op: POST /x/y -> 200 (attempt 1)")
  })

  it("an invalid URL is a RefpayConnectionError, not retried", async () => {
    const error = await client.send({ operation: "op", method: "GET", url: "not a url" }).catch((e) => e)
    expect(error).toBeInstanceOf(RefpayConnectionError)
    expect(error.attempts).toBe(1)
    expect(seen).toHaveLength(0)
  })

  it("returns text that is not JSON as text, and an empty body as an empty string", async () => {
    handlers.push((_q, _b, res) => res.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad gateway</h1>"))
    handlers.push((_q, _b, res) => res.writeHead(204).end())
    const text = await makeClient({ maxRetries: 0 }).send({ operation: "op", method: "GET", url: `${baseUrl}/a` })
    expect(text.body).toBe("<h1>Bad gateway</h1>")
    const empty = await client.send({ operation: "op", method: "GET", url: `${baseUrl}/a` })
    expect(empty.status).toBe(204)
    expect(empty.body).toBe("")
  })

  it("retries 5xx with the same bytes and gives back the last answer", async () => {
    handlers.push(
      json(500, { name: "InternalServerError" }),
      json(503, { name: "Unavailable" }),
      json(201, { ok: true })
    )
    const res = await client.send({
      operation: "create payment",
      method: "POST",
      url: `${baseUrl}/p`,
      headers: { "content-type": "application/json" },
      body: payload,
    })
    expect(res.status).toBe(201)
    expect(res.attempts).toBe(3)
    expect(seen.map((s) => s.body)).toEqual([payload, payload, payload])
    expect(seen.map((s) => s.headers["content-length"])).toEqual(Array(3).fill(String(Buffer.byteLength(payload))))
    expect(logger.warn).toHaveBeenCalledWith("REFPAY create payment: POST /p attempt 1 answered 500; retrying in 2 ms")
    expect(logger.warn).toHaveBeenCalledWith("REFPAY create payment: POST /p attempt 2 answered 503; retrying in 5 ms")
  })

  it("stops after maxRetries and returns the last 5xx", async () => {
    handlers.push(json(500, { n: 1 }), json(500, { n: 2 }), json(500, { n: 3 }), json(200, { n: 4 }))
    const res = await client.send({ operation: "op", method: "GET", url: `${baseUrl}/p` })
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ n: 3 })
    expect(res.attempts).toBe(3)
    expect(seen).toHaveLength(3)
  })

  it.each([400, 401, 403, 404, 409, 429])("never retries a %i", async (status) => {
    handlers.push(json(status, { error_code: "X" }), json(200, {}))
    const res = await client.send({ operation: "op", method: "POST", url: `${baseUrl}/p`, body: payload })
    expect(res.status).toBe(status)
    expect(res.attempts).toBe(1)
    expect(seen).toHaveLength(1)
  })

  it("retries a dropped connection, then succeeds", async () => {
    handlers.push(drop, drop, json(200, { ok: 1 }))
    const res = await client.send({ operation: "op", method: "POST", url: `${baseUrl}/p`, body: payload })
    expect(res.status).toBe(200)
    expect(res.attempts).toBe(3)
    expect(seen.map((s) => s.body)).toEqual([payload, payload, payload])
  })

  it("throws RefpayConnectionError with the undici code once retries are used up", async () => {
    handlers.push(drop, drop, drop)
    const error = await client
      .send({ operation: "get payment", method: "GET", url: `${baseUrl}/p`, requestId: "rid" })
      .catch((e) => e)
    expect(error).toBeInstanceOf(RefpayConnectionError)
    expect(error).not.toBeInstanceOf(RefpayTimeoutError)
    expect(error.code).toBe("UND_ERR_SOCKET")
    expect(error.attempts).toBe(3)
    expect(error.requestId).toBe("rid")
    expect(error.message).toMatch(/^REFPAY get payment could not complete \(UND_ERR_SOCKET\) after 3 attempts: /)
  })

  it("a refused connection is a RefpayConnectionError with ECONNREFUSED", async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const error = await makeClient({ maxRetries: 1 })
      .send({ operation: "op", method: "GET", url: `http://127.0.0.1:${port}/` })
      .catch((e) => e)
    expect(error).toBeInstanceOf(RefpayConnectionError)
    expect(error.code).toBe("ECONNREFUSED")
    expect(error.attempts).toBe(2)
  })

  // undici's timers are coarse (about 500 ms), so the server waits well beyond the 100 ms limit.
  it("a slow answer is a RefpayTimeoutError (UND_ERR_HEADERS_TIMEOUT) after the retries", async () => {
    const slow: Handler = (_q, _b, res) => {
      setTimeout(() => res.writeHead(200).end("{}"), 3000).unref()
    }
    handlers.push(slow, slow)
    const timed = makeClient({ maxRetries: 1, headersMs: 100 })
    const error = await timed.send({ operation: "op", method: "GET", url: `${baseUrl}/slow` }).catch((e) => e)
    await timed.close()
    expect(error).toBeInstanceOf(RefpayTimeoutError)
    expect(error.code).toBe("UND_ERR_HEADERS_TIMEOUT")
    expect(error.attempts).toBe(2)
    expect(seen).toHaveLength(2)
  })

  it("scrubs registered secrets from transport errors", async () => {
    handlers.push(drop)
    const error = await makeClient({ maxRetries: 0 })
      .send({ operation: "op", method: "POST", url: `${baseUrl}/p`, body: "client_secret=top-secret-value" })
      .catch((e) => e)
    expect(JSON.stringify(error)).not.toContain("top-secret-value")
  })

  it("after close(), a call to an origin already in use fails the same way, without a retry", async () => {
    handlers.push(json(200, {}))
    await client.send({ operation: "op", method: "GET", url: `${baseUrl}/p` })
    await client.close()
    const error = await client.send({ operation: "op", method: "GET", url: `${baseUrl}/p` }).catch((e) => e)
    expect(error).toBeInstanceOf(RefpayConnectionError)
    expect(error.code).toBe("UND_ERR_DESTROYED")
    expect(error.attempts).toBe(1)
    expect(seen).toHaveLength(1)
  })

  it("reuses one keep-alive connection for sequential calls", async () => {
    for (let i = 0; i < 5; i++) handlers.push(json(200, { i }))
    const ports = new Set<number | undefined>()
    server.on("request", (req: IncomingMessage) => ports.add(req.socket.remotePort))
    const single = makeClient({ connections: 1 })
    for (let i = 0; i < 5; i++) await single.send({ operation: "op", method: "GET", url: `${baseUrl}/k` })
    await single.close()
    server.removeAllListeners("request")
    server.on("request", () => undefined)
    expect(ports.size).toBe(1)
  })

  it("after close(), a call fails without a retry", async () => {
    await client.close()
    const error = await client.send({ operation: "op", method: "GET", url: `${baseUrl}/p` }).catch((e) => e)
    expect(error).toBeInstanceOf(RefpayConnectionError)
    expect(error.code).toBe("UND_ERR_DESTROYED")
    expect(error.attempts).toBe(1)
  })
})

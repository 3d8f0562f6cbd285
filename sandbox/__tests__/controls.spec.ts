import { randomUUID } from "node:crypto"
import { startSandbox, type RunningSandbox } from "../src"
import { RequestLog } from "../src/request-log"
import {
  bearer,
  call,
  CANCEL,
  cancelRequest,
  control,
  CREATE,
  createPayment,
  MAIN,
  paymentRequest,
  t1Form,
  STATUS,
  stopSandbox,
  t1Token,
  T2_BODY,
  t2Headers,
  t2Token,
} from "./support/client"

let sb: RunningSandbox

beforeAll(async () => {
  sb = await startSandbox({ port: 0 })
})
afterEach(() => sb.reset())
afterAll(() => stopSandbox(sb))

describe("startSandbox", () => {
  it("exposes the three base URLs on localhost", () => {
    expect(sb.port).toBeGreaterThan(0)
    expect(sb.url).toBe(`http://localhost:${sb.port}`)
    expect(sb.authUrl).toBe(`${sb.url}/auth`)
    expect(sb.backofficeUrl).toBe(`${sb.url}/backoffice`)
    expect(sb.paymentsUrl).toBe(sb.url)
  })

  it("answers on 127.0.0.1 and on ::1 with the same port", async () => {
    expect((await call(`http://127.0.0.1:${sb.port}`, "GET", "/__sandbox/clock")).status).toBe(200)
    expect((await call(`http://[::1]:${sb.port}`, "GET", "/__sandbox/clock")).status).toBe(200)
  })

  it("refuses bad options with a message naming the option", async () => {
    await expect(startSandbox({ webhookAuth: "token" as never })).rejects.toThrow(
      "Sandbox option webhookAuth must be one of header, basic."
    )
    await expect(startSandbox({ entity: "1234" })).rejects.toThrow(
      "Sandbox option entity must be 5 digits, e.g. 21098."
    )
  })

  it("close() is idempotent", async () => {
    const other = await startSandbox({ port: 0 })
    await Promise.all([other.close(), other.close()])
    await expect(call(other.url, "GET", "/__sandbox/clock")).rejects.toThrow()
  })
})

describe("request log (GET /__sandbox/requests)", () => {
  it("records identifiers but never secrets, tokens or Authorization headers", async () => {
    const t1 = await t1Token(sb)
    const t2 = await t2Token(sb)
    const body = paymentRequest()
    await createPayment(sb, t1, body)
    await call(sb.paymentsUrl, "POST", CREATE, { headers: { authorization: t2 }, json: paymentRequest() })
    await call(sb.authUrl, "POST", "/token", { form: { ...t1Form(), client_secret: "wrong-secret-value" } })
    const log = await control(sb, "GET", "/requests")
    expect(log.body.count).toBe(5)
    for (const secret of [MAIN.clientSecret, "wrong-secret-value", t1, t2, t1.split(".")[2] as string]) {
      expect(log.text).not.toContain(secret)
    }
    expect(log.text.toLowerCase()).not.toContain("authorization")
    expect(log.body.requests[2]).toEqual({
      at: expect.stringMatching(/Z$/),
      method: "POST",
      path: CREATE,
      status: 201,
      duration_ms: expect.any(Number),
      request_id: body.request_id,
      idempotency_key: body.idempotency_key,
      iface: "t1",
    })
    expect(log.body.requests.map((r: any) => [r.path, r.status, r.iface])).toEqual([
      ["/auth/token", 200, "t1"],
      ["/backoffice/v1/token", 200, "t2"],
      [CREATE, 201, "t1"],
      [CREATE, 201, "t2"],
      ["/auth/token", 401, "t1"],
    ])
  })

  it("filters by path prefix and method; control calls are not logged", async () => {
    const token = await t1Token(sb)
    await createPayment(sb, token)
    await call(sb.paymentsUrl, "GET", "/dpm/hub-payment-info/v1/payments/info/x", { headers: bearer(token) })
    await control(sb, "GET", "/clock")
    expect((await control(sb, "GET", "/requests?path=/dpm")).body.count).toBe(2)
    expect(
      (await control(sb, "GET", "/requests?path=/dpm&method=get")).body.requests.map((r: any) => r.status)
    ).toEqual([400])
    expect((await control(sb, "GET", "/requests?path=/__sandbox")).body.count).toBe(0)
    await control(sb, "DELETE", "/requests")
    expect((await control(sb, "GET", "/requests")).body.count).toBe(0)
  })

  it("is a ring buffer keeping the newest entries", () => {
    const log = new RequestLog(3)
    for (let i = 1; i <= 5; i++) log.add(0, "GET", `/p${i}`, 200, 1, {})
    expect(log.query().map((e) => e.path)).toEqual(["/p3", "/p4", "/p5"])
  })
})

describe("DELETE /__sandbox/payments/{id} (the platform forgets a payment)", () => {
  it("forgets one payment: reads, controls, cancel and refund get 404; other payments are untouched", async () => {
    const token = await t1Token(sb)
    const kept = await createPayment(sb, token)
    const body = paymentRequest(1999)
    const gone = await createPayment(sb, token, body)
    const id = gone.body.payment_id
    await control(sb, "POST", `/payments/${id}/pay`)

    const forgotten = await control(sb, "DELETE", `/payments/${id}`)
    expect(forgotten.status).toBe(200)
    expect(forgotten.body).toEqual({
      forgotten: true,
      payment_id: id,
      seller_id: gone.body.seller_id,
      status: "APPROVED",
    })

    const read = await call(sb.paymentsUrl, "GET", `${STATUS}${id}`, { headers: bearer(token) })
    expect(read.status).toBe(404)
    expect(read.body.error_code).toBe("PAYMENT_NOT_FOUND")
    const refund = await call(sb.paymentsUrl, "POST", CANCEL, { headers: bearer(token), json: cancelRequest(id, 100) })
    expect(refund.status).toBe(404)
    for (const [method, path] of [
      ["GET", `/payments/${id}`],
      ["POST", `/payments/${id}/pay`],
      ["POST", `/payments/${id}/cancel`],
      ["POST", `/payments/${id}/expire`],
      ["DELETE", `/payments/${id}`],
    ] as const) {
      const res = await control(sb, method, path)
      expect([method, path, res.status, res.body.error_code]).toEqual([method, path, 404, "PAYMENT_NOT_FOUND"])
    }

    const list = await control(sb, "GET", "/payments")
    expect(list.body.payments.map((p: any) => p.payment_id)).toEqual([kept.body.payment_id])
    expect(
      (await call(sb.paymentsUrl, "GET", `${STATUS}${kept.body.payment_id}`, { headers: bearer(token) })).status
    ).toBe(200)
  })

  it("a forgotten WAITING payment no longer expires; its order_id and payment_id can be used again", async () => {
    const token = await t1Token(sb)
    const body = paymentRequest(1999)
    const id = (await createPayment(sb, token, body)).body.payment_id
    expect((await control(sb, "DELETE", `/payments/${id}`)).body.status).toBe("WAITING")
    expect((await control(sb, "POST", "/clock", { advance_days: 8 })).body.expired).toBe(0)

    // A new request (new idempotency key) with the same order and payment ids creates the payment anew (with a
    // new token: eight days on, the first one has expired).
    const again = await createPayment(sb, await t1Token(sb), {
      ...body,
      idempotency_key: randomUUID(),
      request_id: randomUUID(),
    })
    expect(again.status).toBe(201)
    expect(again.body.payment_id).toBe(id)
    expect((await control(sb, "GET", `/payments/${id}`)).body.status).toBe("WAITING")
  })
})

describe("POST /__sandbox/reset", () => {
  it("clears payments, idempotency, counts, logs, faults, clock and webhook faults", async () => {
    const token = await t1Token(sb)
    const body = paymentRequest()
    await createPayment(sb, token, body)
    await control(sb, "POST", "/faults", { path: "/nowhere", status: 500 })
    await control(sb, "POST", "/webhooks/faults", { mode: "drop", count: 3 })
    await control(sb, "POST", "/clock", { advance_ms: 5_000 })
    await control(sb, "POST", "/next-reference", { reference: "000000001" })

    expect((await control(sb, "POST", "/reset")).body).toEqual({ reset: true })

    expect((await control(sb, "GET", "/payments")).body.count).toBe(0)
    expect((await control(sb, "GET", "/requests")).body.count).toBe(0)
    expect((await control(sb, "GET", "/faults")).body.count).toBe(0)
    expect((await control(sb, "GET", "/webhooks/faults")).body.count).toBe(0)
    expect((await control(sb, "GET", "/tokens")).body).toEqual({ issued: 0, t1: 0, t2: 0 })
    expect((await control(sb, "GET", "/clock")).body.offset_ms).toBe(0)
    // Same key, order and payment id are free again; the token issued before the reset still works.
    const again = await createPayment(sb, token, body)
    expect(again.status).toBe(201)
    expect(again.headers["idempotent-replayed"]).toBeUndefined()
    expect(again.body.additional_data.reference).not.toBe("000000001")
  })

  it("RunningSandbox.reset() does the same in process", async () => {
    await createPayment(sb, await t1Token(sb))
    sb.reset()
    expect((await control(sb, "GET", "/payments")).body.count).toBe(0)
  })
})

describe("routing errors", () => {
  it("404 JSON in the dialect of the path", async () => {
    expect((await call(sb.url, "GET", "/auth/nothing")).body).toEqual({
      error: "invalid_request",
      error_description: "No resource at /auth/nothing",
    })
    expect((await call(sb.url, "GET", "/backoffice/v2/token")).body.name).toBe("NotFound")
    const payments = await call(sb.url, "GET", "/dpm/payments-gwproxy/v3/payments")
    expect(payments.status).toBe(404)
    expect(payments.body).toEqual({
      error_code: "NOT_FOUND",
      message: "No resource at /dpm/payments-gwproxy/v3/payments",
      details: [],
    })
    const ctl = await control(sb, "GET", "/nothing")
    expect(ctl.status).toBe(404)
    expect(ctl.body.error_code).toBe("NOT_FOUND")
  })

  it("405 with Allow for a wrong method", async () => {
    const res = await call(sb.url, "GET", CREATE)
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe("POST")
    expect(res.body.error_code).toBe("METHOD_NOT_ALLOWED")
    const ctl = await control(sb, "PUT", "/clock")
    expect(ctl.status).toBe(405)
    expect(ctl.headers.allow).toBe("GET, POST")
  })

  it("413 for a body over 1 MiB", async () => {
    const token = await t1Token(sb)
    const huge = JSON.stringify({ ...paymentRequest(), padding: "x".repeat(1024 * 1024) })
    const res = await call(sb.paymentsUrl, "POST", CREATE, {
      headers: { ...bearer(token), "content-type": "application/json" },
      raw: huge,
    })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ error_code: "PAYLOAD_TOO_LARGE", message: "Request body exceeds 1 MiB", details: [] })
    const t2 = await call(sb.backofficeUrl, "POST", "/v1/token", {
      headers: { ...t2Headers(), "content-type": "application/json" },
      raw: JSON.stringify({ ...T2_BODY, name: "x".repeat(1024 * 1024 + 1) }),
    })
    expect(t2.status).toBe(413)
    expect(t2.body.name).toBe("PayloadTooLarge")
  })

  it("a control body must be a JSON object", async () => {
    const res = await call(sb.url, "POST", "/__sandbox/clock", { raw: "[1]" })
    expect(res.status).toBe(400)
    expect(res.body.details).toEqual([{ field: "body", message: "must be a JSON object" }])
  })
})

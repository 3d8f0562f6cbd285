import type { RunningSandbox } from "../src"
import {
  call,
  control,
  CREATE,
  createPayment,
  deniedBody,
  paymentRequest,
  startWithToken,
  stopSandbox,
  t1Form,
  t2Headers,
  T2_BODY,
} from "./support/client"

let sb: RunningSandbox
let token: string

beforeAll(async () => ({ sb, token } = await startWithToken()))
afterEach(() => sb.reset())
afterAll(() => stopSandbox(sb))

const paymentsCount = async () => (await control(sb, "GET", "/payments")).body.count

describe("scripted faults (POST /__sandbox/faults)", () => {
  it("T1 500 server_error (spec 7) by default under /auth, for `count` requests", async () => {
    const added = await control(sb, "POST", "/faults", { path: "/auth/token", status: 500, count: 2 })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ path: "/auth/token", remaining: 2, status: 500, when: "before", reset: false })
    for (let i = 0; i < 2; i++) {
      const res = await call(sb.authUrl, "POST", "/token", { form: t1Form() })
      expect(res.status).toBe(500)
      expect(res.body).toEqual({ error: "server_error", error_description: "Injected fault" })
    }
    expect((await call(sb.authUrl, "POST", "/token", { form: t1Form() })).status).toBe(200)
  })

  it("T2 500 InternalServerError (spec 7) with the 2.4 body", async () => {
    await control(sb, "POST", "/faults", { path: "/backoffice", status: 500 })
    const res = await call(sb.backofficeUrl, "POST", "/v1/token", { headers: t2Headers(), json: T2_BODY })
    expect(res.status).toBe(500)
    expect(res.body).toEqual(
      deniedBody(500, "InternalServerError", "Internal Server Error", "Internal Server Error", "INJECTED_FAULT")
    )
  })

  it("before: answers the status without doing the work", async () => {
    await control(sb, "POST", "/faults", { path: CREATE, method: "post", status: 503 })
    const res = await createPayment(sb, token)
    expect(res.status).toBe(503)
    expect(res.body.name).toBe("ServiceUnavailable")
    expect(await paymentsCount()).toBe(0)
  })

  it("after: creates the payment, fails the answer; the retry with the same key replays 201", async () => {
    await control(sb, "POST", "/faults", { path: CREATE, status: 502, when: "after" })
    const body = paymentRequest()
    const failed = await createPayment(sb, token, body)
    expect(failed.status).toBe(502)
    expect(await paymentsCount()).toBe(1)
    const retry = await createPayment(sb, token, body)
    expect(retry.status).toBe(201)
    expect(retry.body.payment_id).toBe(body.data.payment.payment_id)
    expect(await paymentsCount()).toBe(1)
    const log = await control(sb, "GET", `/requests?path=${CREATE}`)
    expect(log.body.requests.map((r: any) => [r.status, r.fault ?? null, r.idempotency_key])).toEqual([
      [502, "status", body.idempotency_key],
      [201, null, body.idempotency_key],
    ])
  })

  it("reset before: the connection is dropped and nothing is created", async () => {
    await control(sb, "POST", "/faults", { path: CREATE, reset: true })
    await expect(createPayment(sb, token)).rejects.toMatchObject({ code: "ECONNRESET" })
    expect(await paymentsCount()).toBe(0)
    expect((await createPayment(sb, token)).status).toBe(201)
  })

  it("reset after: the payment exists although the client saw a dropped connection", async () => {
    await control(sb, "POST", "/faults", { path: CREATE, reset: true, when: "after" })
    const body = paymentRequest()
    await expect(createPayment(sb, token, body)).rejects.toMatchObject({ code: "ECONNRESET" })
    expect(await paymentsCount()).toBe(1)
    expect((await createPayment(sb, token, body)).status).toBe(201)
    expect(await paymentsCount()).toBe(1)
  })

  it("delay_ms slows the answer and then lets the call through", async () => {
    await control(sb, "POST", "/faults", { path: CREATE, delay_ms: 150 })
    const started = Date.now()
    const res = await createPayment(sb, token)
    expect(res.status).toBe(201)
    expect(Date.now() - started).toBeGreaterThanOrEqual(145)
  })

  it("a custom body and only the matching method", async () => {
    await control(sb, "POST", "/faults", {
      path: "/dpm",
      method: "GET",
      status: 429,
      body: { error_code: "RATE_LIMITED" },
    })
    expect((await createPayment(sb, token)).status).toBe(201)
    const res = await call(sb.paymentsUrl, "GET", "/dpm/hub-payment-info/v1/payments/info/x", {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(429)
    expect(res.body).toEqual({ error_code: "RATE_LIMITED" })
  })

  it("a text body is sent as text (e.g. a proxy's HTML error page)", async () => {
    await control(sb, "POST", "/faults", { path: "/auth", status: 502, body: "<html>Bad gateway</html>" })
    const res = await call(sb.authUrl, "POST", "/token", { form: t1Form() })
    expect(res.status).toBe(502)
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8")
    expect(res.text).toBe("<html>Bad gateway</html>")
  })

  it("never applies to /__sandbox; list and DELETE clear", async () => {
    const refused = await control(sb, "POST", "/faults", { path: "/__sandbox", status: 500 })
    expect(refused.status).toBe(400)
    expect(refused.body.details).toEqual([{ field: "path", message: "must not target /__sandbox" }])
    await control(sb, "POST", "/faults", { path: "/", status: 500, count: 5 })
    expect((await control(sb, "GET", "/clock")).status).toBe(200)
    expect((await control(sb, "GET", "/faults")).body.faults).toHaveLength(1)
    await control(sb, "DELETE", "/faults")
    expect((await control(sb, "GET", "/faults")).body.count).toBe(0)
    expect((await createPayment(sb, token)).status).toBe(201)
  })

  it("refuses a fault that does nothing or is malformed", async () => {
    expect((await control(sb, "POST", "/faults", { path: "/auth" })).body.details).toEqual([
      { field: "status", message: "one of status, delay_ms, reset: true or hold: true is required" },
    ])
    expect((await control(sb, "POST", "/faults", { path: "auth", status: 99, when: "later" })).body.details).toEqual([
      { field: "path", message: "must be a path starting with /" },
      { field: "status", message: "must be an HTTP status from 100 to 599" },
      { field: "when", message: 'must be "before" or "after"' },
    ])
  })
})

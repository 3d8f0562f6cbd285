import { request } from "undici"
import { startSandbox, type RunningSandbox } from "../src"
import {
  agent,
  bearer,
  call,
  CANCEL,
  cancelRequest,
  control,
  CREATE,
  createPayment,
  paymentRequest,
  startWithToken,
  STATUS,
  stopSandbox,
  t1Form,
  t1Token,
  waitFor,
  type Answer,
} from "./support/client"

/**
 * Hold faults (POST /__sandbox/faults with `hold: true`): a matching platform call waits, before or after its work,
 * until the test lets it go. Races are staged by holding one call and acting while it waits; every wait here is a
 * bounded poll on what the sandbox shows (GET /__sandbox/faults), never a sleep of fixed length.
 */
let sb: RunningSandbox
let token: string

beforeAll(async () => ({ sb, token } = await startWithToken()))
afterEach(() => sb.reset())
afterAll(() => stopSandbox(sb))

const paymentsCount = async () => (await control(sb, "GET", "/payments")).body.count as number

async function hold(spec: Record<string, unknown>): Promise<number> {
  const added = await control(sb, "POST", "/faults", { hold: true, ...spec })
  expect(added.status).toBe(201)
  return added.body.id
}

/** The fault's view once it holds `n` requests (a bounded poll). */
async function held(id: number, n = 1): Promise<any> {
  return waitFor(async () => {
    const faults = (await control(sb, "GET", "/faults")).body.faults as any[]
    const fault = faults.find((f) => f.id === id)
    return fault?.held === n ? fault : undefined
  })
}

/** True while `pending` has not settled (checked after the sandbox answered a control call, so it had its chance). */
async function stillPending(pending: Promise<unknown>): Promise<boolean> {
  await control(sb, "GET", "/clock")
  return Promise.race([
    pending.then(
      () => false,
      () => false
    ),
    new Promise<boolean>((r) => setImmediate(() => r(true))),
  ])
}

describe("hold faults (POST /__sandbox/faults with hold: true)", () => {
  it("before: the call waits without doing its work until it is released, then goes through", async () => {
    const id = await hold({ path: CREATE, method: "POST" })
    const pending = createPayment(sb, token)
    const view = await held(id)
    expect(view).toMatchObject({
      path: CREATE,
      method: "POST",
      remaining: 0,
      when: "before",
      hold: true,
      hold_max_ms: 60_000,
      held: 1,
      released: 0,
      timed_out: 0,
    })
    expect(await paymentsCount()).toBe(0)
    expect(await stillPending(pending)).toBe(true)

    const released = await control(sb, "POST", `/faults/${id}/release`)
    expect(released.status).toBe(200)
    expect(released.body).toEqual({ released: 1, fault: expect.objectContaining({ id, held: 0, released: 1 }) })
    expect((await pending).status).toBe(201)
    expect(await paymentsCount()).toBe(1)
    // Used up and holding nothing: no longer listed.
    expect((await control(sb, "GET", "/faults")).body).toEqual({ count: 0, faults: [] })
    const log = await control(sb, "GET", `/requests?path=${CREATE}`)
    expect(log.body.requests.map((r: any) => [r.status, r.fault])).toEqual([[201, "hold"]])
  })

  it("after: the work is done while the answer is held; the rest of the fault applies on release", async () => {
    const id = await hold({ path: CREATE, when: "after", status: 502 })
    const body = paymentRequest()
    const pending = createPayment(sb, token, body)
    await held(id)
    const created = await control(sb, "GET", `/payments/${body.data.payment.payment_id}`)
    expect(created.status).toBe(200)
    expect(created.body.status).toBe("WAITING")
    expect(await stillPending(pending)).toBe(true)

    await control(sb, "POST", `/faults/${id}/release`)
    expect((await pending).status).toBe(502)
    // The idempotent retry finds the payment made while the first answer was held.
    expect((await createPayment(sb, token, body)).status).toBe(201)
    expect(await paymentsCount()).toBe(1)
  })

  it("stages a race: a status read held after its work while the payment is paid, answers the state it read", async () => {
    const created = await createPayment(sb, token)
    const paymentId = created.body.payment_id
    const id = await hold({ path: `${STATUS}${paymentId}`, method: "GET", when: "after" })
    const read = call(sb.paymentsUrl, "GET", `${STATUS}${paymentId}`, { headers: bearer(token) })
    await held(id)
    expect((await control(sb, "POST", `/payments/${paymentId}/pay`)).body.status).toBe("APPROVED")
    await control(sb, "POST", `/faults/${id}/release`)
    expect((await read).body.status).toBe("WAITING")
  })

  it("holds up to `count` requests; release { count } lets the longest-held go first", async () => {
    const id = await hold({ path: "/auth/token", count: 3 })
    const first = call(sb.authUrl, "POST", "/token", { form: t1Form() })
    await held(id, 1)
    const second = call(sb.authUrl, "POST", "/token", { form: t1Form() })
    await held(id, 2)
    expect((await held(id, 2)).remaining).toBe(1)

    const one = await control(sb, "POST", `/faults/${id}/release`, { count: 1 })
    expect(one.body).toMatchObject({ released: 1, fault: { held: 1, released: 1, remaining: 1 } })
    expect((await first).status).toBe(200)
    expect(await stillPending(second)).toBe(true)

    const rest = await control(sb, "POST", `/faults/${id}/release`, { count: 5 })
    expect(rest.body.released).toBe(1)
    expect((await second).status).toBe(200)
    // Nothing held: a release lets nothing go, and says so.
    expect((await control(sb, "POST", `/faults/${id}/release`)).body).toMatchObject({
      released: 0,
      fault: { held: 0, released: 2 },
    })
  })

  it("DELETE /__sandbox/faults lets every held request go, on every hold fault", async () => {
    const created = await createPayment(sb, token)
    const a = await hold({ path: CREATE, count: 2 })
    const b = await hold({ path: CANCEL, when: "after" })
    const calls = [
      createPayment(sb, token),
      createPayment(sb, token),
      call(sb.paymentsUrl, "POST", CANCEL, {
        headers: bearer(token),
        json: cancelRequest(created.body.payment_id, 1999),
      }),
    ]
    await held(a, 2)
    await held(b, 1)
    const cleared = await control(sb, "DELETE", "/faults")
    expect(cleared.body).toEqual({ count: 0, faults: [], released: 3 })
    expect((await Promise.all(calls)).map((r: Answer) => r.status)).toEqual([201, 201, 200])
    expect(await paymentsCount()).toBe(3)
    // The faults are gone, ids and all.
    expect((await control(sb, "POST", `/faults/${a}/release`)).status).toBe(404)
  })

  it("reset lets held requests go too", async () => {
    const id = await hold({ path: "/auth/token" })
    const pending = call(sb.authUrl, "POST", "/token", { form: t1Form() })
    await held(id)
    sb.reset()
    expect((await pending).status).toBe(200)
  })

  it("hold_max_ms: a forgotten hold ends on its own and the request goes through", async () => {
    const id = await hold({ path: "/auth/token", count: 2, hold_max_ms: 200 })
    const started = Date.now()
    const res = await call(sb.authUrl, "POST", "/token", { form: t1Form() })
    expect(res.status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    const [fault] = (await control(sb, "GET", "/faults")).body.faults
    expect(fault).toMatchObject({ id, remaining: 1, hold_max_ms: 200, held: 0, released: 0, timed_out: 1 })
  })

  it("a client that gives up is no longer held, and a held create it abandoned is never made", async () => {
    const id = await hold({ path: CREATE })
    const abort = new AbortController()
    const pending = request(`${sb.paymentsUrl}${CREATE}`, {
      method: "POST",
      headers: { ...bearer(token), "content-type": "application/json" },
      body: JSON.stringify(paymentRequest()),
      dispatcher: agent,
      signal: abort.signal,
    })
    await held(id)
    abort.abort()
    await expect(pending).rejects.toThrow()
    await waitFor(async () => ((await control(sb, "GET", "/faults")).body.count === 0 ? true : undefined))
    const log = await waitFor(async () => {
      const entries = (await control(sb, "GET", `/requests?path=${CREATE}`)).body.requests
      return entries.length === 1 ? entries : undefined
    })
    expect(log[0]).toMatchObject({ status: 0, fault: "hold" })
    expect(await paymentsCount()).toBe(0)
  })

  it("close() ends held requests at once instead of waiting for hold_max_ms", async () => {
    const other = await startSandbox({ port: 0 })
    const otherToken = await t1Token(other)
    await control(other, "POST", "/faults", { path: CREATE, hold: true })
    const pending = createPayment(other, otherToken)
    await waitFor(async () => ((await control(other, "GET", "/faults")).body.faults[0]?.held === 1 ? true : undefined))
    const started = Date.now()
    await other.close()
    await expect(pending).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it("other faults are listed as holding nothing; their ids cannot be released", async () => {
    const added = await control(sb, "POST", "/faults", { path: "/nowhere", status: 500 })
    expect(added.body).toEqual({
      id: added.body.id,
      path: "/nowhere",
      method: null,
      remaining: 1,
      status: 500,
      delay_ms: null,
      reset: false,
      when: "before",
      hold: false,
      hold_max_ms: null,
      held: 0,
      released: 0,
      timed_out: 0,
    })
    const refused = await control(sb, "POST", `/faults/${added.body.id}/release`)
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual({
      error_code: "FAULT_NOT_HOLDING",
      message: `Fault ${added.body.id} is not a hold fault`,
      details: [],
    })
    for (const unknown of ["999", "abc", "0", "1.5"]) {
      const res = await control(sb, "POST", `/faults/${unknown}/release`)
      expect(res.status).toBe(404)
      expect(res.body.error_code).toBe("FAULT_NOT_FOUND")
    }
  })

  it("refuses a malformed hold, naming every problem at once", async () => {
    const bad = await control(sb, "POST", "/faults", { path: "x", hold: "yes", hold_max_ms: 0, when: "later" })
    expect(bad.status).toBe(400)
    expect(bad.body.details).toEqual([
      { field: "path", message: "must be a path starting with /" },
      { field: "when", message: 'must be "before" or "after"' },
      { field: "hold", message: "must be a boolean" },
      { field: "hold_max_ms", message: "must be an integer from 1 to 600000" },
    ])
    expect(
      (await control(sb, "POST", "/faults", { path: "/auth", hold: true, hold_max_ms: 600_001 })).body.details
    ).toEqual([{ field: "hold_max_ms", message: "must be an integer from 1 to 600000" }])
    expect((await control(sb, "POST", "/faults", { path: "/auth", hold: false, hold_max_ms: 5 })).body.details).toEqual(
      [
        { field: "status", message: "one of status, delay_ms, reset: true or hold: true is required" },
        { field: "hold_max_ms", message: "needs hold: true" },
      ]
    )
    const id = await hold({ path: "/nowhere" })
    const release = await control(sb, "POST", `/faults/${id}/release`, { count: 0, all: true })
    expect(release.status).toBe(400)
    expect(release.body.details).toEqual([
      { field: "count", message: "must be an integer >= 1" },
      { field: "all", message: "is not allowed" },
    ])
    expect((await control(sb, "GET", "/faults")).body.count).toBe(1)
  })
})

import { startSandbox, type RunningSandbox } from "../src"
import { agent, control, createPayment, paymentRequest, sleep, startReceiver, t1Token, waitFor } from "./support/client"

type Receiver = Awaited<ReturnType<typeof startReceiver>>

let receiver: Receiver
let sb: RunningSandbox
let token: string

beforeAll(async () => {
  receiver = await startReceiver()
  sb = await startSandbox({
    port: 0,
    webhookUrl: receiver.url,
    webhookSecret: "whsec-test",
    webhookBackoffMs: 20,
    webhookRetries: 3,
  })
  token = await t1Token(sb)
})
afterEach(() => {
  sb.reset()
  receiver.received.length = 0
  receiver.setRespond(() => 204)
})
afterAll(async () => {
  await sb.close()
  await receiver.close()
  await agent.close()
})

async function create(amount = 1999) {
  const body = paymentRequest(amount)
  const res = await createPayment(sb, token, body)
  expect(res.status).toBe(201)
  return body.data.payment.payment_id as string
}

const receivedFor = (id: string) => receiver.received.filter((r) => r.body.payment_id === id)

async function eventOf(id: string, type = "PENDING_TRANSACTIONS") {
  const res = await control(sb, "GET", `/webhooks?payment_id=${id}&event_type=${type}`)
  return res.body.events[0]
}

describe("webhook delivery (contract page)", () => {
  it("POSTs the event JSON with the shared secret header", async () => {
    const id = await create(1999)
    const [hook] = await waitFor(() => (receivedFor(id).length === 1 ? receivedFor(id) : undefined))
    expect(hook?.headers["x-refpay-webhook-secret"]).toBe("whsec-test")
    expect(hook?.headers.authorization).toBeUndefined()
    expect(hook?.headers["content-type"]).toBe("application/json")
    expect(Object.keys(hook?.body).sort()).toEqual(
      ["amount", "currency", "event_id", "event_type", "occurred_at", "order_id", "payment_id", "status"].sort()
    )
    expect(hook?.body).toMatchObject({
      event_type: "PENDING_TRANSACTIONS",
      payment_id: id,
      status: "WAITING",
      amount: 1999,
      currency: "EUR",
    })
    const event = await waitFor(async () => {
      const e = await eventOf(id)
      return e.state === "delivered" ? e : undefined
    })
    expect(event.attempts).toEqual([
      {
        event_id: hook?.body.event_id,
        delivery: 1,
        attempt: 1,
        at: expect.any(String),
        status: 204,
        duration_ms: expect.any(Number),
      },
    ])
  })

  it("sends APPROVED_TRANSACTIONS and CANCELLED_TRANSACTIONS in order", async () => {
    // Deliveries run concurrently, so each event is awaited before the next transition is triggered.
    const paid = await create()
    await waitFor(() => receivedFor(paid).length === 1 || undefined)
    await control(sb, "POST", `/payments/${paid}/pay`)
    const cancelled = await create()
    await waitFor(() => receivedFor(cancelled).length === 1 || undefined)
    await control(sb, "POST", `/payments/${cancelled}/cancel`)
    await waitFor(() => receiver.received.length === 4 || undefined)
    expect(receivedFor(paid).map((r) => [r.body.event_type, r.body.status])).toEqual([
      ["PENDING_TRANSACTIONS", "WAITING"],
      ["APPROVED_TRANSACTIONS", "APPROVED"],
    ])
    expect(receivedFor(cancelled).map((r) => [r.body.event_type, r.body.status])).toEqual([
      ["PENDING_TRANSACTIONS", "WAITING"],
      ["CANCELLED_TRANSACTIONS", "CANCELLED"],
    ])
  })

  it("Basic mode sends Authorization: Basic refpay:<secret>", async () => {
    await control(sb, "POST", "/webhooks/config", { auth: "basic", secret: "s3cret" })
    const id = await create()
    const [hook] = await waitFor(() => (receivedFor(id).length ? receivedFor(id) : undefined))
    expect(hook?.headers.authorization).toBe(`Basic ${Buffer.from("refpay:s3cret").toString("base64")}`)
    expect(hook?.headers["x-refpay-webhook-secret"]).toBeUndefined()
    const config = await control(sb, "GET", "/webhooks/config")
    expect(config.body).toEqual({
      url: receiver.url,
      auth: "basic",
      secret_set: true,
      retries: 3,
      backoff_ms: 20,
      timeout_ms: 10_000,
    })
    expect(config.text).not.toContain("s3cret")
  })

  it("retries a 500 with exponential backoff until a 2xx", async () => {
    receiver.setRespond((n) => (n <= 2 ? 500 : 200))
    const id = await create()
    const event = await waitFor(async () => {
      const e = await eventOf(id)
      return e.state === "delivered" ? e : undefined
    })
    expect(event.attempts.map((a: any) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ])
    const [a, b, c] = receiver.received.map((r) => r.at) as [number, number, number]
    expect(b - a).toBeGreaterThanOrEqual(18) // 20 ms
    expect(c - b).toBeGreaterThanOrEqual(38) // 40 ms
  })

  it("gives up after webhookRetries retries and marks the delivery failed", async () => {
    receiver.setRespond(() => 503)
    const id = await create()
    const event = await waitFor(async () => {
      const e = await eventOf(id)
      return e.state === "failed" ? e : undefined
    })
    expect(event.attempts.map((a: any) => a.status)).toEqual([503, 503, 503, 503])
    expect(receiver.received).toHaveLength(4)
  })

  it("retries connection errors and logs their code", async () => {
    await control(sb, "POST", "/webhooks/config", { url: "http://127.0.0.1:9/unreachable", retries: 1, backoff_ms: 5 })
    const id = await create()
    const event = await waitFor(async () => {
      const e = await eventOf(id)
      return e.state === "failed" ? e : undefined
    })
    expect(event.attempts.map((a: any) => [a.attempt, a.error])).toEqual([
      [1, "ECONNREFUSED"],
      [2, "ECONNREFUSED"],
    ])
  })

  it("counts an attempt unanswered after timeout_ms as failed and retries it", async () => {
    await control(sb, "POST", "/webhooks/config", { timeout_ms: 300, retries: 1, backoff_ms: 5 })
    const release = receiver.block()
    try {
      const id = await create()
      const event = await waitFor(async () => {
        const e = await eventOf(id)
        return e.state === "failed" ? e : undefined
      })
      expect(event.attempts.map((a: any) => [a.attempt, a.status ?? null, a.error])).toEqual([
        [1, null, "TIMEOUT"],
        [2, null, "TIMEOUT"],
      ])
      expect((await control(sb, "GET", "/webhooks/config")).body.timeout_ms).toBe(300)
    } finally {
      release()
    }
  })

  it("never holds the API answer for a receiver that hangs", async () => {
    const release = receiver.block()
    const id = await create()
    await waitFor(() => receivedFor(id).length === 1 || undefined)
    // The receiver still has not answered, yet the create call above has returned and the delivery is pending.
    expect((await eventOf(id)).state).toBe("pending")
    release()
    await waitFor(async () => ((await eventOf(id)).state === "delivered" ? true : undefined))
  })

  it("delay: the first attempt waits delay_ms", async () => {
    await control(sb, "POST", "/webhooks/faults", { mode: "delay", delay_ms: 300 })
    const started = Date.now()
    const id = await create()
    expect(Date.now() - started).toBeLessThan(200)
    expect(receivedFor(id)).toHaveLength(0)
    await waitFor(() => receivedFor(id).length === 1 || undefined)
    expect((receivedFor(id)[0]?.at ?? 0) - started).toBeGreaterThanOrEqual(290)
  })

  it("drop: the next event is recorded as dropped and never sent", async () => {
    await control(sb, "POST", "/webhooks/faults", { mode: "drop", count: 1 })
    const dropped = await create()
    const sent = await create()
    await waitFor(() => receivedFor(sent).length === 1 || undefined)
    await sleep(30)
    expect(receivedFor(dropped)).toHaveLength(0)
    expect((await eventOf(dropped)).state).toBe("dropped")
    expect((await control(sb, "GET", "/webhooks/faults")).body.count).toBe(0)
  })

  it("duplicate: the same event (same event_id) arrives `copies` times", async () => {
    await control(sb, "POST", "/webhooks/faults", { mode: "duplicate", count: 1, copies: 3 })
    const id = await create()
    await waitFor(() => receivedFor(id).length === 3 || undefined)
    expect(new Set(receivedFor(id).map((r) => r.body.event_id)).size).toBe(1)
    const next = await create()
    await waitFor(() => receivedFor(next).length === 1 || undefined)
    await sleep(30)
    expect(receivedFor(next)).toHaveLength(1)
  })

  it("redeliver sends a recorded event again; unknown events are 404", async () => {
    const id = await create()
    await waitFor(() => receivedFor(id).length === 1 || undefined)
    const eventId = receivedFor(id)[0]?.body.event_id
    const res = await control(sb, "POST", `/webhooks/${eventId}/redeliver`)
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ event_id: eventId, delivery: 2 })
    await waitFor(() => receivedFor(id).length === 2 || undefined)
    expect(receivedFor(id)[1]?.body).toEqual(receivedFor(id)[0]?.body)
    expect((await control(sb, "POST", "/webhooks/00000000-0000-4000-8000-000000000000/redeliver")).status).toBe(404)
  })

  it("without a URL events are recorded, not delivered; redeliver then needs a URL", async () => {
    await control(sb, "POST", "/webhooks/config", { url: null })
    const id = await create()
    await sleep(30)
    expect(receiver.received).toHaveLength(0)
    const event = await eventOf(id)
    expect(event.state).toBe("recorded")
    expect((await control(sb, "POST", `/webhooks/${event.event_id}/redeliver`)).status).toBe(409)
    await control(sb, "POST", "/webhooks/config", { url: receiver.url })
    expect((await control(sb, "POST", `/webhooks/${event.event_id}/redeliver`)).status).toBe(202)
    await waitFor(() => receivedFor(id).length === 1 || undefined)
  })

  it("reset cancels pending retries and restores the start-up configuration", async () => {
    receiver.setRespond(() => 500)
    await control(sb, "POST", "/webhooks/config", { backoff_ms: 100, secret: "other", timeout_ms: 2_000 })
    const id = await create()
    await waitFor(() => receivedFor(id).length === 1 || undefined)
    await control(sb, "POST", "/reset")
    await sleep(250)
    expect(receivedFor(id)).toHaveLength(1)
    const config = await control(sb, "GET", "/webhooks")
    expect(config.body.count).toBe(0)
    expect(config.body.config).toEqual({
      url: receiver.url,
      auth: "header",
      secret_set: true,
      retries: 3,
      backoff_ms: 20,
      timeout_ms: 10_000,
    })
  })

  it("refuses invalid webhook controls", async () => {
    const fault = await control(sb, "POST", "/webhooks/faults", { mode: "explode" })
    expect(fault.status).toBe(400)
    expect(fault.body.details).toEqual([{ field: "mode", message: 'must be "drop", "duplicate" or "delay"' }])
    const config = await control(sb, "POST", "/webhooks/config", { url: "ftp://x", auth: "token", timeout_ms: 50 })
    expect(config.body.details).toEqual([
      { field: "url", message: "must be an absolute http(s) URL or null" },
      { field: "auth", message: 'must be "header" or "basic"' },
      { field: "timeout_ms", message: "must be an integer from 100 to 300000" },
    ])
  })
})

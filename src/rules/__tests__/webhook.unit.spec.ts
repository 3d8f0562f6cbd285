import { readWebhookEvent } from "../webhook"

const PAYMENT_ID = "3f6c2a9e-8d41-4b7a-9c55-0e1f2a3b4c5d"
const ORDER_ID = "ps_01JD8X2Y3Z4A5B6C7D8E9F0G1H"
const base = { event_id: "evt-1", event_type: "APPROVED_TRANSACTIONS", payment_id: PAYMENT_ID, order_id: ORDER_ID }

const eventOf = (body: unknown) => {
  const parsed = readWebhookEvent(body)
  if (!parsed?.usable) throw new Error(`expected a usable event, got ${JSON.stringify(parsed)}`)
  return parsed.event
}
const problemOf = (body: unknown) => {
  const parsed = readWebhookEvent(body)
  return parsed && !parsed.usable ? parsed.problem : `usable: ${JSON.stringify(parsed)}`
}

describe("parsing a webhook event: only the event type and the payment id are required", () => {
  it.each<[string, Record<string, unknown>]>([
    ["an amount in euros (24.98)", { amount: 24.98 }],
    ['an amount as text in euros ("24.98")', { amount: "24.98" }],
    ["a negative amount", { amount: -5 }],
    ["a numeric status", { status: 7 }],
    ["a status longer than 100 characters", { status: "A".repeat(150) }],
    ["occurred_at as a number", { occurred_at: 1_764_000_000 }],
    ["occurred_at as an object", { occurred_at: { seconds: 1 } }],
    ["a 300-character event_id", { event_id: "e".repeat(300) }],
    ["a numeric event_id", { event_id: 12345 }],
    ["an empty event_id", { event_id: "" }],
    ["a null order_id", { order_id: null }],
    ["a numeric order_id", { order_id: 42 }],
    ["fields the plugin has never heard of", { customer: { name: "Ana" }, tags: [1, 2], nested: { deep: [null] } }],
  ])("accepts an event with %s, keeping the payment id and event type", (_name, odd) => {
    const event = eventOf({ ...base, ...odd })
    expect(event).toMatchObject({ event_type: "APPROVED_TRANSACTIONS", payment_id: PAYMENT_ID })
  })

  it("keeps the optional fields that have the right type", () => {
    const event = eventOf({ ...base, status: "APPROVED", amount: 2498, occurred_at: "2026-11-24T10:00:00Z" })
    expect(event).toEqual({
      event_id: "evt-1",
      event_type: "APPROVED_TRANSACTIONS",
      payment_id: PAYMENT_ID,
      order_id: ORDER_ID,
      status: "APPROVED",
      amount: 2498,
      occurred_at: "2026-11-24T10:00:00Z",
      session_id: "payses_01JD8X2Y3Z4A5B6C7D8E9F0G1H",
    })
    expect(eventOf({ ...base, amount: "2498" }).amount).toBe(2498)
  })

  it("drops the optional fields that have another type instead of refusing the event", () => {
    const event = eventOf({ ...base, status: 7, amount: 24.98, occurred_at: 1_764_000_000 })
    expect(event.status).toBeUndefined()
    expect(event.amount).toBeUndefined()
    expect(event.occurred_at).toBeUndefined()
    expect(eventOf({ ...base, amount: "24.98" }).amount).toBeUndefined()
  })

  it("drops an order_id it cannot use, so the session is found from the platform's record of the payment", () => {
    for (const order_id of [42, null, "", "x".repeat(300)]) {
      const event = eventOf({ ...base, order_id })
      expect(event.order_id).toBeUndefined()
      expect(event.session_id).toBeNull()
    }
  })

  it("keys an event by its event_id; a long one by a hash of it (the same for every redelivery), a numeric one as text", () => {
    const long = "e".repeat(300)
    const key = eventOf({ ...base, event_id: long }).event_id!
    expect(key.length).toBeLessThanOrEqual(200)
    expect(key).not.toBe(long.slice(0, key.length))
    expect(eventOf({ ...base, event_id: long, amount: 1 }).event_id).toBe(key)
    expect(eventOf({ ...base, event_id: `${long}x` }).event_id).not.toBe(key)
    expect(eventOf({ ...base, event_id: 12345 }).event_id).toBe("12345")
    expect(eventOf({ ...base, event_id: "" }).event_id).toBeUndefined()
    expect(eventOf({ ...base, event_id: { id: 1 } }).event_id).toBeUndefined()
  })

  it("reads JSON text and bytes alike", () => {
    expect(eventOf(JSON.stringify({ ...base, amount: 24.98 })).payment_id).toBe(PAYMENT_ID)
    expect(eventOf(Buffer.from(JSON.stringify({ ...base, amount: "24.98" }))).payment_id).toBe(PAYMENT_ID)
  })
})

describe("parsing a webhook event: what makes a delivery unusable, and why", () => {
  it.each<[string, unknown, string]>([
    ["no payment_id", { event_type: "APPROVED_TRANSACTIONS", order_id: ORDER_ID }, "no_payment_id"],
    ["an empty payment_id", { ...base, payment_id: "" }, "no_payment_id"],
    ["a numeric payment_id", { ...base, payment_id: 1234 }, "no_payment_id"],
    ["a payment_id longer than the platform's ids", { ...base, payment_id: "p".repeat(300) }, "no_payment_id"],
    ["no event_type", { payment_id: PAYMENT_ID }, "no_event_type"],
    ["a numeric event_type", { ...base, event_type: 3 }, "no_event_type"],
    ["text that is not JSON", "event=APPROVED&payment_id=1", "not_json"],
    ["bytes that are not JSON", Buffer.from('{"payment_id": '), "not_json"],
    ["a JSON array", [base], "not_an_object"],
    ["JSON null", "null", "not_an_object"],
    ["nothing", undefined, "not_an_object"],
  ])("%s", (_name, body, problem) => {
    expect(problemOf(body)).toBe(problem)
  })
})

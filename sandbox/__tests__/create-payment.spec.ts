import { randomUUID } from "node:crypto"
import { DEFAULT_SELLER_ID, startSandbox, type RunningSandbox } from "../src"
import {
  bearer,
  call,
  control,
  CREATE,
  createPayment,
  MAIN,
  paymentRequest,
  startWithToken,
  STATUS,
  stopSandbox,
  t1Token,
  t2Token,
} from "./support/client"

let sb: RunningSandbox
let token: string

beforeAll(async () => ({ sb, token } = await startWithToken()))
afterEach(() => sb.reset())
afterAll(() => stopSandbox(sb))

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** Applies `change` to a fresh valid request and returns the 400 details. */
async function problems(change: (body: any) => void) {
  const body = paymentRequest()
  change(body)
  const res = await createPayment(sb, token, body)
  expect(res.status).toBe(400)
  expect(res.body.error_code).toBe("INVALID_REQUEST")
  expect(res.body.message).toBe("Request validation failed")
  return res.body.details
}

describe("POST /dpm/payments-gwproxy/v2/payments: success (spec 2.6)", () => {
  it("answers 201 with exactly the 2.6 fields; amount, entity and reference are strings", async () => {
    const body = paymentRequest(1999)
    const res = await createPayment(sb, token, body)
    expect(res.status).toBe(201)
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "acquirer_transaction_id",
        "additional_data",
        "amount",
        "currency",
        "idempotency_key",
        "order_id",
        "payment_id",
        "reason_code",
        "reason_message",
        "received_at",
        "seller_id",
        "status",
      ].sort()
    )
    expect(res.body).toMatchObject({
      idempotency_key: body.idempotency_key,
      seller_id: DEFAULT_SELLER_ID,
      payment_id: body.data.payment.payment_id,
      order_id: body.order_id,
      amount: "1999",
      currency: "EUR",
      status: "WAITING",
      reason_code: "0000",
      reason_message: "Pending: awaiting customer payment",
    })
    expect(res.body.received_at).toMatch(ISO)
    expect(res.body.acquirer_transaction_id).toMatch(/^\d{12}$/)
    expect(res.body.additional_data.entity).toBe("21098")
    expect(res.body.additional_data.reference).toMatch(/^\d{9}$/)
  })

  it("issues unique 9-digit references, every other one starting with 0", async () => {
    const refs: string[] = []
    for (let i = 0; i < 10; i++) refs.push((await createPayment(sb, token)).body.additional_data.reference)
    expect(new Set(refs).size).toBe(10)
    refs.forEach((ref, i) => {
      expect(ref).toMatch(/^\d{9}$/)
      expect(ref.startsWith("0")).toBe(i % 2 === 0)
    })
  })

  it("accepts a full customer object and keeps it", async () => {
    const body = paymentRequest()
    const address = {
      street: "Rua Augusta",
      number: "10",
      complement: "2 Esq",
      district: "Lisboa",
      city: "Lisboa",
      state: "Lisboa",
      country: "PT",
      postal_code: "1100-053",
    }
    body.data.additional_data = {
      customer: {
        email: "ana@example.pt",
        document_number: "123456789",
        document_type: "nif",
        name: "Ana Silva",
        phone_number: "+351912345678",
        billing_address: address,
        shippings: { address },
      },
    }
    const res = await createPayment(sb, token, body)
    expect(res.status).toBe(201)
    const raw = await control(sb, "GET", `/payments/${body.data.payment.payment_id}`)
    expect(raw.body.customer).toEqual(body.data.additional_data.customer)
  })

  it("works with a bare T2 token and sends PENDING_TRANSACTIONS", async () => {
    const t2 = await t2Token(sb)
    const body = paymentRequest(500)
    const res = await call(sb.paymentsUrl, "POST", CREATE, { headers: { authorization: t2 }, json: body })
    expect(res.status).toBe(201)
    const events = await control(sb, "GET", `/webhooks?payment_id=${body.data.payment.payment_id}`)
    expect(events.body.count).toBe(1)
    expect(events.body.events[0].payload).toMatchObject({
      event_type: "PENDING_TRANSACTIONS",
      payment_id: body.data.payment.payment_id,
      order_id: body.order_id,
      status: "WAITING",
      amount: 500,
      currency: "EUR",
    })
    expect(events.body.events[0].state).toBe("recorded")
  })

  it("returns the scripted entity and reference of POST /__sandbox/next-reference once", async () => {
    expect((await control(sb, "POST", "/next-reference", { entity: "01234", reference: "000000123" })).status).toBe(200)
    const first = await createPayment(sb, token)
    expect(first.body.additional_data).toEqual({ entity: "01234", reference: "000000123" })
    const second = await createPayment(sb, token)
    expect(second.body.additional_data.entity).toBe("21098")
    expect((await control(sb, "POST", "/next-reference", { reference: "000000123" })).status).toBe(409)
    expect((await control(sb, "POST", "/next-reference", { reference: "12345" })).status).toBe(400)
  })
})

describe("create: validation (spec 2.5), every problem in one 400", () => {
  it.each([
    ["idempotency_key", (b: any) => delete b.idempotency_key],
    ["request_id", (b: any) => delete b.request_id],
    ["order_id", (b: any) => delete b.order_id],
    ["data", (b: any) => delete b.data],
    ["data.amount", (b: any) => delete b.data.amount],
    ["data.currency", (b: any) => delete b.data.currency],
    ["data.payment", (b: any) => delete b.data.payment],
    ["data.payment.payment_id", (b: any) => delete b.data.payment.payment_id],
    ["data.payment.payment_method", (b: any) => delete b.data.payment.payment_method],
    ["data.payment.brand", (b: any) => delete b.data.payment.brand],
  ])("%s is required", async (field, change) => {
    expect(await problems(change)).toEqual([{ field, message: "is required" }])
  })

  it.each([
    ["idempotency_key", (b: any) => (b.idempotency_key = "key-1")],
    ["request_id", (b: any) => (b.request_id = "12345")],
    ["data.payment.payment_id", (b: any) => (b.data.payment.payment_id = "pay_1")],
  ])("%s must be a UUID", async (field, change) => {
    expect(await problems(change)).toEqual([{ field, message: "must be a UUID" }])
  })

  it("order_id: 1 to 35 characters, a string", async () => {
    expect(await problems((b) => (b.order_id = ""))).toEqual([
      { field: "order_id", message: "must be at least 1 character" },
    ])
    expect(await problems((b) => (b.order_id = "x".repeat(36)))).toEqual([
      { field: "order_id", message: "must be at most 35 characters" },
    ])
    expect(await problems((b) => (b.order_id = 42))).toEqual([{ field: "order_id", message: "must be a string" }])
    const ok = paymentRequest()
    ok.order_id = "y".repeat(35)
    expect((await createPayment(sb, token, ok)).status).toBe(201)
  })

  it.each([
    ["a string", "1999"],
    ["zero", 0],
    ["negative", -1],
    ["a fraction", 19.99],
    ["unsafe", 2 ** 53],
  ])("data.amount refused when %s", async (_, amount) => {
    expect(await problems((b) => (b.data.amount = amount))).toEqual([
      { field: "data.amount", message: "must be an integer number of cents greater than 0" },
    ])
  })

  it.each([
    ["data.currency", "eur", 'must be "EUR"', (b: any, v: string) => (b.data.currency = v)],
    ["data.currency", "USD", 'must be "EUR"', (b: any, v: string) => (b.data.currency = v)],
    [
      "data.payment.payment_method",
      "CREDIT_CARD",
      'must be "CASH_PAYMENT"',
      (b: any, v: string) => (b.data.payment.payment_method = v),
    ],
    ["data.payment.brand", "MBWAY", 'must be "REFPAY"', (b: any, v: string) => (b.data.payment.brand = v)],
  ])("%s = %s refused", async (field, value, message, change) => {
    expect(await problems((b) => change(b, value))).toEqual([{ field, message }])
  })

  it("refuses unknown fields at every level", async () => {
    const details = await problems((b) => {
      b.extra = 1
      b.data.installments = 2
      b.data.payment.token = "t"
      b.data.additional_data = { customer: { age: 30, billing_address: { floor: "2" } }, note: "x" }
    })
    expect(details).toEqual([
      { field: "data.payment.token", message: "is not allowed" },
      { field: "data.additional_data.customer.billing_address.floor", message: "is not allowed" },
      { field: "data.additional_data.customer.age", message: "is not allowed" },
      { field: "data.additional_data.note", message: "is not allowed" },
      { field: "data.installments", message: "is not allowed" },
      { field: "extra", message: "is not allowed" },
    ])
  })

  it("checks customer field types and the alpha-2 country", async () => {
    const details = await problems((b) => {
      b.data.additional_data = {
        customer: {
          name: 7,
          email: null,
          shippings: { address: { country: "PRT" } },
          billing_address: { country: "pt" },
        },
      }
    })
    expect(details).toEqual([
      { field: "data.additional_data.customer.email", message: "must not be null" },
      { field: "data.additional_data.customer.name", message: "must be a string" },
      {
        field: "data.additional_data.customer.billing_address.country",
        message: "must be an ISO 3166-1 alpha-2 code, e.g. PT",
      },
      {
        field: "data.additional_data.customer.shippings.address.country",
        message: "must be an ISO 3166-1 alpha-2 code, e.g. PT",
      },
    ])
  })

  it("reports several problems at once", async () => {
    const details = await problems((b) => {
      b.request_id = "nope"
      b.data.amount = "10"
      b.data.currency = "USD"
    })
    expect(details.map((d: { field: string }) => d.field)).toEqual(["request_id", "data.amount", "data.currency"])
  })

  it("refuses a non-JSON content type, invalid JSON and a non-object body", async () => {
    const text = await call(sb.paymentsUrl, "POST", CREATE, {
      headers: { ...bearer(token), "content-type": "text/plain" },
      raw: JSON.stringify(paymentRequest()),
    })
    expect(text.status).toBe(400)
    expect(text.body).toEqual({
      error_code: "INVALID_REQUEST",
      message: "Content-Type must be application/json",
      details: [{ field: "Content-Type", message: "must be application/json" }],
    })
    const invalid = await call(sb.paymentsUrl, "POST", CREATE, {
      headers: { ...bearer(token), "content-type": "application/json" },
      raw: '{"order_id": ',
    })
    expect(invalid.body).toEqual({
      error_code: "INVALID_REQUEST",
      message: "Request body is not valid JSON",
      details: [{ field: "body", message: "must be valid JSON" }],
    })
    const array = await call(sb.paymentsUrl, "POST", CREATE, { headers: bearer(token), json: [] })
    expect(array.body.details).toEqual([{ field: "body", message: "must be an object" }])
    expect((await control(sb, "GET", "/payments")).body.count).toBe(0)
  })
})

describe("create: idempotency and uniqueness (contract page)", () => {
  it("replays the first answer for the same key and body (request_id may differ), creating nothing", async () => {
    const body = paymentRequest()
    const first = await createPayment(sb, token, body)
    const retry = await createPayment(sb, token, { ...body, request_id: randomUUID() })
    expect(retry.status).toBe(201)
    expect(retry.text).toBe(first.text)
    expect(retry.headers["idempotent-replayed"]).toBe("true")
    const all = await control(sb, "GET", "/payments")
    expect(all.body.count).toBe(1)
    expect((await control(sb, "GET", "/webhooks")).body.count).toBe(1)
  })

  it("treats a reordered body as the same body", async () => {
    const body = paymentRequest()
    await createPayment(sb, token, body)
    const reordered = {
      data: { payment: body.data.payment, currency: "EUR", amount: body.data.amount },
      order_id: body.order_id,
      request_id: body.request_id,
      idempotency_key: body.idempotency_key,
    }
    expect((await createPayment(sb, token, reordered)).status).toBe(201)
    expect((await control(sb, "GET", "/payments")).body.count).toBe(1)
  })

  it("409 IDEMPOTENCY_KEY_REUSED for the same key with another body", async () => {
    const body = paymentRequest(1000)
    await createPayment(sb, token, body)
    const res = await createPayment(sb, token, { ...body, data: { ...body.data, amount: 1001 } })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      error_code: "IDEMPOTENCY_KEY_REUSED",
      message: "This idempotency_key was used with a different request body",
      details: [{ field: "idempotency_key", message: "was already used with a different request body" }],
    })
    expect((await control(sb, "GET", "/payments")).body.count).toBe(1)
  })

  it("409 DUPLICATE_ORDER_ID for a new key with a used order_id", async () => {
    const body = paymentRequest()
    await createPayment(sb, token, body)
    const again = paymentRequest()
    again.order_id = body.order_id
    const res = await createPayment(sb, token, again)
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      error_code: "DUPLICATE_ORDER_ID",
      message: "A payment with this order_id already exists",
      details: [{ field: "order_id", message: "is already used by another payment" }],
    })
  })

  it("409 DUPLICATE_PAYMENT_ID for a new key with a used payment_id", async () => {
    const body = paymentRequest()
    await createPayment(sb, token, body)
    const again = paymentRequest()
    again.data.payment.payment_id = body.data.payment.payment_id
    const res = await createPayment(sb, token, again)
    expect(res.status).toBe(409)
    expect(res.body.error_code).toBe("DUPLICATE_PAYMENT_ID")
    expect(res.body.details).toEqual([
      { field: "data.payment.payment_id", message: "is already used by another payment" },
    ])
  })
})

describe("sellers are separate", () => {
  const OTHER_SELLER = "5e11e200-0000-4000-8000-0000000000b2"
  let multi: RunningSandbox
  beforeAll(async () => {
    multi = await startSandbox({
      port: 0,
      entity: "55555",
      credentials: [
        { ...MAIN },
        {
          clientId: "other-id",
          clientSecret: "other-secret",
          channel: "other",
          scope: "payments",
          sellerId: OTHER_SELLER,
          entity: "77777",
        },
      ],
    })
  })
  afterAll(() => multi.close())

  it("keys, order ids and reads are per seller; entity is per seller", async () => {
    const mine = await t1Token(multi)
    const theirs = await t1Token(multi, {
      clientId: "other-id",
      clientSecret: "other-secret",
      channel: "other",
      scope: "payments",
    })
    const body = paymentRequest()
    const a = await createPayment(multi, mine, body)
    const b = await createPayment(multi, theirs, body)
    expect(a.status).toBe(201)
    expect(b.status).toBe(201)
    expect(a.body.seller_id).toBe(DEFAULT_SELLER_ID)
    expect(b.body.seller_id).toBe(OTHER_SELLER)
    expect(a.body.additional_data.entity).toBe("55555")
    expect(b.body.additional_data.entity).toBe("77777")
    expect(a.body.additional_data.reference).not.toBe(b.body.additional_data.reference)
    await control(multi, "POST", `/payments/${body.data.payment.payment_id}/pay?seller_id=${OTHER_SELLER}`)
    const mineStatus = await call(multi.paymentsUrl, "GET", `${STATUS}${body.data.payment.payment_id}`, {
      headers: bearer(mine),
    })
    const theirStatus = await call(multi.paymentsUrl, "GET", `${STATUS}${body.data.payment.payment_id}`, {
      headers: bearer(theirs),
    })
    expect(mineStatus.body.status).toBe("WAITING")
    expect(theirStatus.body.status).toBe("APPROVED")
  })
})

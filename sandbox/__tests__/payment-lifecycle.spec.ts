import { randomUUID } from "node:crypto"
import { startSandbox, type RunningSandbox } from "../src"
import {
  bearer,
  call,
  CANCEL,
  cancelRequest,
  control,
  createPayment,
  paymentRequest,
  sleep,
  startWithToken,
  STATUS,
  stopSandbox,
  t1Token,
} from "./support/client"

let sb: RunningSandbox
let token: string

beforeAll(async () => ({ sb, token } = await startWithToken()))
afterEach(() => sb.reset())
afterAll(() => stopSandbox(sb))

const DAY = 86_400_000

async function newPayment(amount = 1999, target: RunningSandbox = sb, tok = token) {
  const body = paymentRequest(amount)
  const res = await createPayment(target, tok, body)
  expect(res.status).toBe(201)
  return { id: body.data.payment.payment_id as string, body, created: res.body }
}

const status = (id: string, target: RunningSandbox = sb, tok = token) =>
  call(target.paymentsUrl, "GET", `${STATUS}${id}`, { headers: bearer(tok) })
const cancel = (json: unknown) => call(sb.paymentsUrl, "POST", CANCEL, { headers: bearer(token), json })
const events = async (id: string, target: RunningSandbox = sb) =>
  (await control(target, "GET", `/webhooks?payment_id=${id}`)).body.events.map((e: any) => e.payload.event_type)

describe("GET /dpm/hub-payment-info/v1/payments/info/{payment_id}", () => {
  it("returns the contract page's status body", async () => {
    const { id, body, created } = await newPayment(1999)
    const res = await status(id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      payment_id: id,
      order_id: body.order_id,
      seller_id: created.seller_id,
      status: "WAITING",
      amount: "1999",
      refunded_amount: "0",
      currency: "EUR",
      received_at: created.received_at,
      updated_at: created.received_at,
      expires_at: new Date(Date.parse(created.received_at) + 7 * DAY).toISOString(),
      reason_code: "0000",
      reason_message: "Pending: awaiting customer payment",
      additional_data: created.additional_data,
      payment: { payment_method: "CASH_PAYMENT", brand: "REFPAY", transaction_type: "PURCHASE" },
      records: [
        {
          type: "PAYMENT",
          amount: "1999",
          status: "WAITING",
          occurred_at: created.received_at,
          idempotency_key: body.idempotency_key,
        },
      ],
    })
  })

  it("404 PAYMENT_NOT_FOUND for an unknown id; 400 for an id that is not a UUID", async () => {
    const missing = await status(randomUUID())
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error_code: "PAYMENT_NOT_FOUND", message: "Payment not found", details: [] })
    const bad = await status("ORDER-1")
    expect(bad.status).toBe(400)
    expect(bad.body.details).toEqual([{ field: "payment_id", message: "must be a UUID" }])
  })

  it("reports APPROVED after the customer pays, with an APPROVAL record and event", async () => {
    const { id } = await newPayment()
    const paid = await control(sb, "POST", `/payments/${id}/pay`)
    expect(paid.status).toBe(200)
    const res = await status(id)
    expect(res.body.status).toBe("APPROVED")
    expect(res.body.reason_message).toBe("Approved")
    expect(res.body.records.map((r: any) => [r.type, r.status])).toEqual([
      ["PAYMENT", "WAITING"],
      ["APPROVAL", "APPROVED"],
    ])
    expect(await events(id)).toEqual(["PENDING_TRANSACTIONS", "APPROVED_TRANSACTIONS"])
  })
})

describe("POST /dpm/payments-gwproxy/v2/payments/cancel", () => {
  it("cancels a WAITING payment for its full amount and sends CANCELLED_TRANSACTIONS", async () => {
    const { id } = await newPayment(1999)
    const req = cancelRequest(id, 1999)
    const res = await cancel(req)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      idempotency_key: req.idempotency_key,
      payment_id: id,
      operation: "CANCELLATION",
      amount: "1999",
      status: "CANCELLED",
      refunded_amount: "0",
      processed_at: expect.stringMatching(/Z$/),
      reason_code: "0000",
      reason_message: "Cancelled by merchant",
    })
    expect((await status(id)).body.status).toBe("CANCELLED")
    expect(await events(id)).toEqual(["PENDING_TRANSACTIONS", "CANCELLED_TRANSACTIONS"])
  })

  it("400 INVALID_AMOUNT when cancelling a WAITING payment for another amount", async () => {
    const { id } = await newPayment(1999)
    const res = await cancel(cancelRequest(id, 1000))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error_code: "INVALID_AMOUNT",
      message: "A waiting payment is cancelled for its full amount",
      details: [{ field: "amount", message: "must equal the payment amount (1999)" }],
    })
    expect((await status(id)).body.status).toBe("WAITING")
  })

  it("409 PAYMENT_ALREADY_CANCELLED for a cancelled payment", async () => {
    const { id } = await newPayment(1999)
    await cancel(cancelRequest(id, 1999))
    const res = await cancel(cancelRequest(id, 1999))
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      error_code: "PAYMENT_ALREADY_CANCELLED",
      message: "The payment is cancelled",
      details: [],
    })
  })

  it("replays a cancel retried with the same key; 409 IDEMPOTENCY_KEY_REUSED with another body", async () => {
    const { id } = await newPayment(1999)
    const req = cancelRequest(id, 1999)
    const first = await cancel(req)
    const again = await cancel({ ...req, request_id: randomUUID() })
    expect(again.status).toBe(200)
    expect(again.text).toBe(first.text)
    const reused = await cancel({ ...req, amount: 1 })
    expect(reused.status).toBe(409)
    expect(reused.body.error_code).toBe("IDEMPOTENCY_KEY_REUSED")
    expect(await events(id)).toEqual(["PENDING_TRANSACTIONS", "CANCELLED_TRANSACTIONS"])
  })

  it("refunds an APPROVED payment fully", async () => {
    const { id } = await newPayment(1999)
    await control(sb, "POST", `/payments/${id}/pay`)
    const res = await cancel(cancelRequest(id, 1999))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      operation: "REFUND",
      amount: "1999",
      status: "APPROVED",
      refunded_amount: "1999",
      reason_message: "Refunded",
    })
    const after = await status(id)
    expect(after.body.status).toBe("APPROVED")
    expect(after.body.refunded_amount).toBe("1999")
  })

  it("refunds partially, then refuses more than what is left", async () => {
    const { id } = await newPayment(1000)
    await control(sb, "POST", `/payments/${id}/pay`)
    expect((await cancel(cancelRequest(id, 300))).body.refunded_amount).toBe("300")
    expect((await cancel(cancelRequest(id, 500))).body.refunded_amount).toBe("800")
    const over = await cancel(cancelRequest(id, 201))
    expect(over.status).toBe(400)
    expect(over.body).toEqual({
      error_code: "AMOUNT_EXCEEDS_REFUNDABLE",
      message: "The amount exceeds what can still be refunded",
      details: [{ field: "amount", message: "must be at most 200" }],
    })
    expect((await cancel(cancelRequest(id, 200))).body.refunded_amount).toBe("1000")
    const records = (await status(id)).body.records.map((r: any) => [r.type, r.amount])
    expect(records).toEqual([
      ["PAYMENT", "1000"],
      ["APPROVAL", "1000"],
      ["REFUND", "300"],
      ["REFUND", "500"],
      ["REFUND", "200"],
    ])
  })

  it("validates the cancel body and 404s an unknown payment", async () => {
    const bad = await cancel({
      idempotency_key: "k",
      payment_id: randomUUID(),
      amount: "5",
      payment_method: "CARD",
      reason: "x",
    })
    expect(bad.status).toBe(400)
    expect(bad.body.details).toEqual([
      { field: "idempotency_key", message: "must be a UUID" },
      { field: "amount", message: "must be an integer number of cents greater than 0" },
      { field: "payment_method", message: 'must be "CASH_PAYMENT"' },
      { field: "reason", message: "is not allowed" },
    ])
    const missing = await cancel(cancelRequest(randomUUID(), 100))
    expect(missing.status).toBe(404)
    expect(missing.body.error_code).toBe("PAYMENT_NOT_FOUND")
  })
})

describe("expiry (D+7) and sandbox payment controls", () => {
  it("stays WAITING just before D+7 and becomes CANCELLED/EXPIRED when the clock passes it", async () => {
    const { id, created } = await newPayment()
    await control(sb, "POST", "/clock", { advance_ms: 7 * DAY - 60_000 })
    // Seven days on, the old token has expired too: realistic, so take a new one.
    expect((await status(id)).status).toBe(401)
    token = await t1Token(sb)
    expect((await status(id)).body.status).toBe("WAITING")
    const moved = await control(sb, "POST", "/clock", { advance_ms: 60_000 })
    expect(moved.body.expired).toBe(1)
    const res = await status(id)
    expect(res.body).toMatchObject({
      status: "CANCELLED",
      reason_code: "EXPIRED",
      reason_message: "Reference expired unpaid",
    })
    expect(res.body.updated_at).toBe(new Date(Date.parse(created.received_at) + 7 * DAY).toISOString())
    const list = await control(sb, "GET", `/webhooks?payment_id=${id}`)
    expect(list.body.events[1].payload).toMatchObject({
      event_type: "CANCELLED_TRANSACTIONS",
      status: "CANCELLED",
      amount: 1999,
    })
  })

  it("refuses to pay an expired reference (409) unless forced: a late settlement", async () => {
    const { id } = await newPayment()
    await control(sb, "POST", "/clock", { advance_days: 8 })
    const refused = await control(sb, "POST", `/payments/${id}/pay`)
    expect(refused.status).toBe(409)
    expect(refused.body.error_code).toBe("PAYMENT_NOT_PAYABLE")
    const forced = await control(sb, "POST", `/payments/${id}/pay`, { force: true })
    expect(forced.status).toBe(200)
    expect(forced.body.status).toBe("APPROVED")
    expect(forced.body.reason_message).toBe("Approved after cancellation (late settlement)")
    expect(await events(id)).toEqual(["PENDING_TRANSACTIONS", "CANCELLED_TRANSACTIONS", "APPROVED_TRANSACTIONS"])
  })

  it("pay on a cancelled payment: 409, then force pays it; paying twice is 409", async () => {
    const { id } = await newPayment(1999)
    await cancel(cancelRequest(id, 1999))
    expect((await control(sb, "POST", `/payments/${id}/pay`)).status).toBe(409)
    expect((await control(sb, "POST", `/payments/${id}/pay`, { force: true })).status).toBe(200)
    const twice = await control(sb, "POST", `/payments/${id}/pay`, { force: true })
    expect(twice.status).toBe(409)
    expect(twice.body.error_code).toBe("PAYMENT_ALREADY_APPROVED")
  })

  it("expires by control; cancel or expire of a non-WAITING payment is 409", async () => {
    const { id } = await newPayment()
    const expired = await control(sb, "POST", `/payments/${id}/expire`)
    expect(expired.status).toBe(200)
    expect(expired.body).toMatchObject({ status: "CANCELLED", reason_code: "EXPIRED" })
    expect(await events(id)).toEqual(["PENDING_TRANSACTIONS", "CANCELLED_TRANSACTIONS"])
    for (const action of ["expire", "cancel"]) {
      const res = await control(sb, "POST", `/payments/${id}/${action}`)
      expect(res.status).toBe(409)
      expect(res.body.error_code).toBe("PAYMENT_NOT_WAITING")
    }
    const paid = await newPayment()
    await control(sb, "POST", `/payments/${paid.id}/pay`)
    expect((await control(sb, "POST", `/payments/${paid.id}/cancel`)).status).toBe(409)
  })

  it("cancels by control (the platform's own cancellation)", async () => {
    const { id } = await newPayment()
    const res = await control(sb, "POST", `/payments/${id}/cancel`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: "CANCELLED", reason_message: "Cancelled by the platform" })
  })

  it("404 for controls on an unknown payment; raw list filters by status", async () => {
    expect((await control(sb, "POST", `/payments/${randomUUID()}/pay`)).status).toBe(404)
    const a = await newPayment()
    await newPayment()
    await control(sb, "POST", `/payments/${a.id}/pay`)
    const approved = await control(sb, "GET", "/payments?status=APPROVED")
    expect(approved.body.count).toBe(1)
    expect(approved.body.payments[0]).toMatchObject({
      payment_id: a.id,
      idempotency_key: a.body.idempotency_key,
      request_id: a.body.request_id,
    })
  })

  it("clock set jumps to an absolute time and GET shows it", async () => {
    const target = "2031-01-02T03:04:05.000Z"
    await control(sb, "POST", "/clock", { set: target })
    const clock = await control(sb, "GET", "/clock")
    expect(Date.parse(clock.body.now) - Date.parse(target)).toBeLessThan(1_000)
    expect((await control(sb, "POST", "/clock", { advance_ms: 1, set: target })).status).toBe(400)
  })
})

describe("expiry options", () => {
  it("expiredStatus EXPIRED reports EXPIRED; a cancel of it is 409", async () => {
    const other = await startSandbox({ port: 0, expiredStatus: "EXPIRED" })
    try {
      let tok = await t1Token(other)
      const { id } = await newPayment(1999, other, tok)
      await control(other, "POST", "/clock", { advance_days: 7 })
      tok = await t1Token(other)
      const res = await status(id, other, tok)
      expect(res.body).toMatchObject({ status: "EXPIRED", reason_code: "EXPIRED" })
      expect(await events(id, other)).toEqual(["PENDING_TRANSACTIONS", "CANCELLED_TRANSACTIONS"])
      const cancelled = await call(other.paymentsUrl, "POST", CANCEL, {
        headers: bearer(tok),
        json: cancelRequest(id, 1999),
      })
      expect(cancelled.status).toBe(409)
      expect(cancelled.body.message).toBe("The payment is expired")
    } finally {
      await other.close()
    }
  })

  it("expires lazily on access when real time passes expires_at (no clock move)", async () => {
    const quick = await startSandbox({ port: 0, expiryDays: 100 / DAY }) // 100 ms
    try {
      const tok = await t1Token(quick)
      const { id } = await newPayment(1999, quick, tok)
      await sleep(150)
      expect((await status(id, quick, tok)).body.status).toBe("CANCELLED")
      expect(await events(id, quick)).toEqual(["PENDING_TRANSACTIONS", "CANCELLED_TRANSACTIONS"])
    } finally {
      await quick.close()
    }
  })
})

import { randomUUID } from "node:crypto"
import { RefpayConflictError, RefpayNotFoundError, RefpayValidationError } from "../errors"
import { CANCEL_PATH, CREATE_PATH, failure, newPayment, useSandboxSuite } from "./sandbox-fixture"

/**
 * The three payment calls against the sandbox with both token interfaces: the wire body of spec 2.5, entity and
 * reference kept exactly, the status read, cancellation of a WAITING payment and partial refunds of an APPROVED one.
 */

const { fx, client } = useSandboxSuite()

describe.each(["t1", "t2"] as const)("%s payments", (iface) => {
  it("creates a WAITING payment; the sandbox stored exactly what spec 2.5 says", async () => {
    const input = { ...newPayment({ amountCents: 1999 }), requestId: randomUUID() }
    const created = await client(iface).createPayment(input)
    expect(created).toMatchObject({
      paymentId: input.paymentId,
      orderId: input.orderId,
      idempotencyKey: input.idempotencyKey,
      status: "WAITING",
      amount: "1999",
      amountCents: 1999,
      currency: "EUR",
    })
    expect(created.entity).toMatch(/^\d{5}$/)
    expect(created.reference).toMatch(/^\d{9}$/)
    expect(created.raw.amount).toBe("1999")

    const [stored] = await fx.payments()
    expect(stored).toMatchObject({
      payment_id: input.paymentId,
      order_id: input.orderId,
      amount: "1999",
      currency: "EUR",
      status: "WAITING",
      idempotency_key: input.idempotencyKey,
      request_id: input.requestId,
      payment: { payment_method: "CASH_PAYMENT", brand: "REFPAY" },
      customer: null,
    })
    const [logged] = await fx.requests(CREATE_PATH)
    expect(logged).toMatchObject({
      status: 201,
      idempotency_key: input.idempotencyKey,
      request_id: input.requestId,
      iface,
    })
  })

  it("keeps entity and reference with leading zeros exactly, at creation and on read", async () => {
    await fx.nextReference({ entity: "01234", reference: "000123450" })
    const c = client(iface)
    const created = await c.createPayment(newPayment())
    expect(created.entity).toBe("01234")
    expect(created.reference).toBe("000123450")
    const read = await c.getPayment(created.paymentId)
    expect(read.entity).toBe("01234")
    expect(read.reference).toBe("000123450")
    expect(read.raw).toMatchObject({ additional_data: { entity: "01234", reference: "000123450" } })
  })

  it("sends the customer in snake_case without undefined fields", async () => {
    await client(iface).createPayment({
      ...newPayment(),
      customer: {
        email: "ana@example.pt",
        name: "Ana Silva",
        documentType: "nif",
        documentNumber: "123456789",
        phoneNumber: undefined,
        billingAddress: { street: "Rua Augusta", number: "10", city: "Lisboa", country: "PT", postalCode: "1100-053" },
        shippings: { address: { city: "Porto", country: "PT" } },
      },
    })
    const [stored] = await fx.payments()
    expect(stored.customer).toEqual({
      email: "ana@example.pt",
      document_number: "123456789",
      document_type: "nif",
      name: "Ana Silva",
      billing_address: { street: "Rua Augusta", number: "10", city: "Lisboa", country: "PT", postal_code: "1100-053" },
      shippings: { address: { city: "Porto", country: "PT" } },
    })
  })

  it("reads the status with every contract field", async () => {
    const c = client(iface)
    const created = await c.createPayment(newPayment({ amountCents: 2500 }))
    const read = await c.getPayment(created.paymentId)
    expect(read).toMatchObject({
      paymentId: created.paymentId,
      orderId: created.orderId,
      status: "WAITING",
      amount: "2500",
      amountCents: 2500,
      refundedAmount: "0",
      refundedAmountCents: 0,
      currency: "EUR",
      paymentMethod: "CASH_PAYMENT",
      brand: "REFPAY",
      transactionType: "PURCHASE",
    })
    expect(Date.parse(read.expiresAt!) - Date.parse(read.receivedAt!)).toBe(7 * 86_400_000)
    expect(read.records).toEqual([
      expect.objectContaining({
        type: "PAYMENT",
        amount: "2500",
        amountCents: 2500,
        idempotencyKey: created.idempotencyKey,
      }),
    ])
  })

  it("an unknown payment is RefpayNotFoundError PAYMENT_NOT_FOUND", async () => {
    const error = await failure<RefpayNotFoundError>(client(iface).getPayment(randomUUID()))
    expect(error).toBeInstanceOf(RefpayNotFoundError)
    expect(error.code).toBe("PAYMENT_NOT_FOUND")
    expect(error.body).toEqual({ error_code: "PAYMENT_NOT_FOUND", message: "Payment not found", details: [] })
  })

  it("cancels a WAITING payment for its full amount", async () => {
    const c = client(iface)
    const created = await c.createPayment(newPayment({ amountCents: 1999 }))
    const key = randomUUID()
    const cancelled = await c.cancelOrRefund({ paymentId: created.paymentId, amountCents: 1999, idempotencyKey: key })
    expect(cancelled).toMatchObject({
      paymentId: created.paymentId,
      operation: "CANCELLATION",
      status: "CANCELLED",
      amount: "1999",
      amountCents: 1999,
      idempotencyKey: key,
    })
    expect((await c.getPayment(created.paymentId)).status).toBe("CANCELLED")

    const again = await failure<RefpayConflictError>(
      c.cancelOrRefund({ paymentId: created.paymentId, amountCents: 1999, idempotencyKey: randomUUID() })
    )
    expect(again).toBeInstanceOf(RefpayConflictError)
    expect(again.code).toBe("PAYMENT_ALREADY_CANCELLED")
  })

  it("refuses a partial cancel of a WAITING payment (400 INVALID_AMOUNT)", async () => {
    const c = client(iface)
    const created = await c.createPayment(newPayment({ amountCents: 1999 }))
    const error = await failure<RefpayValidationError>(
      c.cancelOrRefund({ paymentId: created.paymentId, amountCents: 1000, idempotencyKey: randomUUID() })
    )
    expect(error).toBeInstanceOf(RefpayValidationError)
    expect(error.code).toBe("INVALID_AMOUNT")
    expect(await fx.requests(CANCEL_PATH)).toHaveLength(1)
  })

  it("refunds an APPROVED payment in parts, in cents, up to what is left", async () => {
    const c = client(iface)
    const created = await c.createPayment(newPayment({ amountCents: 2500 }))
    await fx.pay(created.paymentId)

    const first = await c.cancelOrRefund({
      paymentId: created.paymentId,
      amountCents: 500,
      idempotencyKey: randomUUID(),
    })
    expect(first).toMatchObject({
      operation: "REFUND",
      status: "APPROVED",
      amount: "500",
      amountCents: 500,
      refundedAmount: "500",
      refundedAmountCents: 500,
    })
    const second = await c.cancelOrRefund({
      paymentId: created.paymentId,
      amountCents: 701,
      idempotencyKey: randomUUID(),
    })
    expect(second).toMatchObject({ amountCents: 701, refundedAmountCents: 1201, status: "APPROVED" })

    const tooMuch = await failure<RefpayValidationError>(
      c.cancelOrRefund({ paymentId: created.paymentId, amountCents: 1300, idempotencyKey: randomUUID() })
    )
    expect(tooMuch).toBeInstanceOf(RefpayValidationError)
    expect(tooMuch.code).toBe("AMOUNT_EXCEEDS_REFUNDABLE")

    const read = await c.getPayment(created.paymentId)
    expect(read).toMatchObject({
      status: "APPROVED",
      amountCents: 2500,
      refundedAmount: "1201",
      refundedAmountCents: 1201,
    })
    expect(read.records.filter((r) => r.type === "REFUND").map((r) => r.amountCents)).toEqual([500, 701])

    const rest = await c.cancelOrRefund({
      paymentId: created.paymentId,
      amountCents: 1299,
      idempotencyKey: randomUUID(),
    })
    expect(rest.refundedAmountCents).toBe(2500)
  })

  it("replays a repeated refund with the same key instead of refunding twice", async () => {
    const c = client(iface)
    const created = await c.createPayment(newPayment({ amountCents: 2000 }))
    await fx.pay(created.paymentId)
    const key = randomUUID()
    const a = await c.cancelOrRefund({ paymentId: created.paymentId, amountCents: 300, idempotencyKey: key })
    const b = await c.cancelOrRefund({ paymentId: created.paymentId, amountCents: 300, idempotencyKey: key })
    expect(b.raw).toEqual(a.raw)
    expect((await c.getPayment(created.paymentId)).refundedAmountCents).toBe(300)
  })

  it("a reused idempotency key with another body is RefpayConflictError IDEMPOTENCY_KEY_REUSED, not retried", async () => {
    const c = client(iface)
    const input = newPayment({ amountCents: 1000 })
    await c.createPayment(input)
    const error = await failure<RefpayConflictError>(c.createPayment({ ...input, amountCents: 1001 }))
    expect(error).toBeInstanceOf(RefpayConflictError)
    expect(error.code).toBe("IDEMPOTENCY_KEY_REUSED")
    expect(error.status).toBe(409)
    expect((await fx.requests(CREATE_PATH)).map((r) => r.status)).toEqual([201, 409])
  })

  it("a duplicate order_id is RefpayConflictError DUPLICATE_ORDER_ID", async () => {
    const c = client(iface)
    const first = newPayment()
    await c.createPayment(first)
    const error = await failure<RefpayConflictError>(c.createPayment({ ...newPayment(), orderId: first.orderId }))
    expect(error.code).toBe("DUPLICATE_ORDER_ID")
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("refuses a bad amount or a 36-character order_id before any request", async () => {
    const c = client(iface)
    await expect(c.createPayment({ ...newPayment(), amountCents: 19.99 })).rejects.toThrow(RefpayValidationError)
    await expect(c.createPayment({ ...newPayment(), orderId: "x".repeat(36) })).rejects.toThrow(
      "REFPAY create payment refused before sending: orderId must be at most 35 characters (got 36)"
    )
    await expect(
      c.cancelOrRefund({ paymentId: randomUUID(), amountCents: 0, idempotencyKey: randomUUID() })
    ).rejects.toThrow(RefpayValidationError)
    expect(await fx.requests()).toHaveLength(0)
    expect(c.tokenRequests()).toBe(0)
  })

  it("accepts an order_id of exactly 35 characters", async () => {
    const orderId = "o".repeat(35)
    const created = await client(iface).createPayment({ ...newPayment(), orderId })
    expect(created.orderId).toBe(orderId)
  })
})

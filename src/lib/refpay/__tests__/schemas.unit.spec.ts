import { PaymentsErrorBodySchema, T1ErrorBodySchema, T2ErrorBodySchema } from "../error-bodies"
import { CancelResponseSchema, PaymentCreationResponseSchema, PaymentStatusResponseSchema } from "../payment-schemas"
import { T1TokenResponseSchema, T2TokenResponseSchema } from "../token-schemas"

const creation = {
  idempotency_key: "5a0f1a4e-3f0c-4b8e-9d55-2b1f7d7c0001",
  seller_id: "9d0c4b8e-1111-4b8e-9d55-2b1f7d7c0002",
  payment_id: "7c1e2d3f-2222-4b8e-9d55-2b1f7d7c0003",
  order_id: "order-1",
  amount: "1999",
  currency: "EUR",
  status: "WAITING",
  received_at: "2025-01-01T10:00:00.000Z",
  reason_code: "0000",
  reason_message: "Pending payment",
  acquirer_transaction_id: "acq-1",
  additional_data: { entity: "01234", reference: "000123450" },
}

describe("token schemas", () => {
  it("T1 token (2.1) -> grant", () => {
    expect(
      T1TokenResponseSchema.parse({ access_token: "abc", token_type: "Bearer", expires_in: 3600, scope: "payments" })
    ).toEqual({
      accessToken: "abc",
      expiresInSeconds: 3600,
      scope: "payments",
    })
  })

  it("T1 token refuses a string expires_in and a missing token_type", () => {
    expect(
      T1TokenResponseSchema.safeParse({ access_token: "abc", token_type: "Bearer", expires_in: "3600" }).success
    ).toBe(false)
    expect(T1TokenResponseSchema.safeParse({ access_token: "abc", expires_in: 3600 }).success).toBe(false)
    expect(T1TokenResponseSchema.safeParse({ access_token: "", token_type: "Bearer", expires_in: 3600 }).success).toBe(
      false
    )
  })

  it("T2 token (2.3): expires_in string holding a number -> number", () => {
    expect(T2TokenResponseSchema.parse({ access_token: "abc", expires_in: "3600" })).toEqual({
      accessToken: "abc",
      expiresInSeconds: 3600,
    })
  })

  it.each([["3600s"], ["-1"], ["0"], [""], [null]])("T2 token refuses expires_in %p", (value) => {
    expect(T2TokenResponseSchema.safeParse({ access_token: "abc", expires_in: value }).success).toBe(false)
  })

  it("T1 and T2 error bodies (2.2, 2.4)", () => {
    expect(T1ErrorBodySchema.parse({ error: "invalid_request" })).toEqual({
      error: "invalid_request",
      error_description: undefined,
    })
    const t2 = T2ErrorBodySchema.parse({
      status_code: 401,
      name: "Unauthorized",
      message: "Unauthorized",
      details: [
        {
          status: "DENIED",
          error_code: "GENERIC-401",
          description: "Unauthorized",
          description_detail: "TOKEN_EXPIRED",
        },
      ],
    })
    expect(t2.details[0].error_code).toBe("GENERIC-401")
    expect(T2ErrorBodySchema.parse({ name: "X" }).details).toEqual([])
  })

  it("payments error body", () => {
    expect(
      PaymentsErrorBodySchema.parse({ error_code: "PAYMENT_NOT_FOUND", message: "not found", details: [] })
    ).toEqual({
      error_code: "PAYMENT_NOT_FOUND",
      message: "not found",
      details: [],
    })
  })
})

describe("PaymentCreationResponseSchema (2.6)", () => {
  it("keeps entity and reference as the exact strings and the amount both ways", () => {
    const parsed = PaymentCreationResponseSchema.parse(creation)
    expect(parsed).toEqual({
      paymentId: creation.payment_id,
      status: "WAITING",
      amount: "1999",
      amountCents: 1999,
      entity: "01234",
      reference: "000123450",
      orderId: "order-1",
      idempotencyKey: creation.idempotency_key,
      sellerId: creation.seller_id,
      currency: "EUR",
      receivedAt: "2025-01-01T10:00:00.000Z",
      reasonCode: "0000",
      reasonMessage: "Pending payment",
      acquirerTransactionId: "acq-1",
    })
  })

  it("refuses a numeric reference (its leading zeros would already be gone)", () => {
    const result = PaymentCreationResponseSchema.safeParse({
      ...creation,
      additional_data: { entity: "01234", reference: 123450 },
    })
    expect(result.success).toBe(false)
    expect(result.error!.issues[0].path).toEqual(["additional_data", "reference"])
  })

  it.each([["19.99"], ["-5"], ["abc"], ["99999999999999999999"]])("refuses amount %p", (amount) => {
    expect(PaymentCreationResponseSchema.safeParse({ ...creation, amount }).success).toBe(false)
  })

  it("accepts an integer amount and turns it into the same string", () => {
    expect(PaymentCreationResponseSchema.parse({ ...creation, amount: 500 })).toMatchObject({
      amount: "500",
      amountCents: 500,
    })
  })

  it("optional fields may be missing or null", () => {
    const parsed = PaymentCreationResponseSchema.parse({
      payment_id: "p",
      status: "WAITING",
      amount: "1",
      additional_data: { entity: "00001", reference: "000000001" },
      reason_code: null,
    })
    expect(parsed.reasonCode).toBeUndefined()
    expect(parsed.entity).toBe("00001")
  })
})

describe("PaymentStatusResponseSchema: lenient", () => {
  it("needs only payment_id and status, keeps unknown statuses", () => {
    expect(PaymentStatusResponseSchema.parse({ payment_id: "p1", status: "REQUIRES_ACTION", something: 1 })).toEqual({
      paymentId: "p1",
      status: "REQUIRES_ACTION",
      records: [],
    })
  })

  it("refuses a body without status", () => {
    expect(PaymentStatusResponseSchema.safeParse({ payment_id: "p1" }).success).toBe(false)
  })

  it("reads the contract's full body", () => {
    const parsed = PaymentStatusResponseSchema.parse({
      payment_id: "p1",
      order_id: "o1",
      seller_id: "s1",
      status: "APPROVED",
      amount: "1999",
      refunded_amount: "500",
      currency: "EUR",
      received_at: "2025-01-01T10:00:00Z",
      updated_at: "2025-01-02T10:00:00Z",
      expires_at: "2025-01-08T10:00:00Z",
      reason_code: "0000",
      reason_message: "ok",
      additional_data: { entity: "01234", reference: "000000099" },
      payment: { payment_method: "CASH_PAYMENT", brand: "REFPAY", transaction_type: "PURCHASE" },
      records: [
        {
          type: "PAYMENT",
          amount: "1999",
          status: "WAITING",
          occurred_at: "2025-01-01T10:00:00Z",
          idempotency_key: "k1",
        },
        {
          type: "REFUND",
          amount: "500",
          status: "APPROVED",
          occurred_at: "2025-01-03T10:00:00Z",
          idempotency_key: "k2",
        },
      ],
    })
    expect(parsed).toEqual({
      paymentId: "p1",
      status: "APPROVED",
      orderId: "o1",
      sellerId: "s1",
      amount: "1999",
      amountCents: 1999,
      refundedAmount: "500",
      refundedAmountCents: 500,
      currency: "EUR",
      receivedAt: "2025-01-01T10:00:00Z",
      updatedAt: "2025-01-02T10:00:00Z",
      expiresAt: "2025-01-08T10:00:00Z",
      reasonCode: "0000",
      reasonMessage: "ok",
      entity: "01234",
      reference: "000000099",
      paymentMethod: "CASH_PAYMENT",
      brand: "REFPAY",
      transactionType: "PURCHASE",
      records: [
        {
          type: "PAYMENT",
          amount: "1999",
          amountCents: 1999,
          status: "WAITING",
          occurredAt: "2025-01-01T10:00:00Z",
          idempotencyKey: "k1",
        },
        {
          type: "REFUND",
          amount: "500",
          amountCents: 500,
          status: "APPROVED",
          occurredAt: "2025-01-03T10:00:00Z",
          idempotencyKey: "k2",
        },
      ],
    })
  })
})

describe("CancelResponseSchema", () => {
  it("reads a partial refund", () => {
    expect(
      CancelResponseSchema.parse({
        idempotency_key: "k",
        payment_id: "p",
        operation: "REFUND",
        amount: "500",
        status: "APPROVED",
        refunded_amount: "700",
        processed_at: "2025-01-03T10:00:00Z",
        reason_code: "0000",
        reason_message: "Refunded",
      })
    ).toEqual({
      paymentId: "p",
      operation: "REFUND",
      status: "APPROVED",
      amount: "500",
      amountCents: 500,
      refundedAmount: "700",
      refundedAmountCents: 700,
      idempotencyKey: "k",
      processedAt: "2025-01-03T10:00:00Z",
      reasonCode: "0000",
      reasonMessage: "Refunded",
    })
  })
})

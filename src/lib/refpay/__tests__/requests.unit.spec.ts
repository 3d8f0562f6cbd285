import { RefpayValidationError } from "../errors"
import { buildCancelBody, buildCreatePaymentBody, fillPaymentIdPath, customerToWire } from "../requests"

const ids = {
  paymentId: "7c1e2d3f-2222-4b8e-9d55-2b1f7d7c0003",
  idempotencyKey: "5a0f1a4e-3f0c-4b8e-9d55-2b1f7d7c0001",
}
const requestId = "0b7c7d4e-4444-4b8e-9d55-2b1f7d7c0004"

describe("buildCreatePaymentBody", () => {
  it("builds the spec 2.5 body with the fixed REFPAY values, in a stable key order", () => {
    const body = buildCreatePaymentBody({ ...ids, orderId: "order-1", amountCents: 1999 }, requestId)
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        idempotency_key: ids.idempotencyKey,
        request_id: requestId,
        order_id: "order-1",
        data: {
          amount: 1999,
          currency: "EUR",
          payment: { payment_id: ids.paymentId, payment_method: "CASH_PAYMENT", brand: "REFPAY" },
        },
      })
    )
  })

  it("maps the customer to snake_case, leaving out undefined fields and empty objects", () => {
    const body = buildCreatePaymentBody(
      {
        ...ids,
        orderId: "o",
        amountCents: 1,
        customer: {
          email: "a@b.pt",
          documentType: "nif",
          documentNumber: "123456789",
          name: undefined,
          phoneNumber: "+351910000000",
          billingAddress: { street: "Rua A", postalCode: "1000-001", country: "PT", city: undefined },
          shippings: { address: {} },
        },
      },
      requestId
    )
    expect(body.data.additional_data).toEqual({
      customer: {
        email: "a@b.pt",
        document_number: "123456789",
        document_type: "nif",
        phone_number: "+351910000000",
        billing_address: { street: "Rua A", country: "PT", postal_code: "1000-001" },
      },
    })
  })

  it("an empty customer adds no additional_data", () => {
    expect(
      buildCreatePaymentBody({ ...ids, orderId: "o", amountCents: 1, customer: {} }, requestId).data
    ).not.toHaveProperty("additional_data")
    expect(customerToWire({ shippings: { address: { number: "12" } } })).toEqual({
      shippings: { address: { number: "12" } },
    })
  })

  it.each([[0], [-1], [19.99], [Number.MAX_SAFE_INTEGER + 1], [Number.NaN], ["1999" as unknown as number]])(
    "refuses amountCents %p before sending",
    (amountCents) => {
      expect(() => buildCreatePaymentBody({ ...ids, orderId: "o", amountCents }, requestId)).toThrow(
        RefpayValidationError
      )
    }
  )

  it("accepts an order_id of 35 characters and refuses 36", () => {
    expect(
      buildCreatePaymentBody({ ...ids, orderId: "x".repeat(35), amountCents: 1 }, requestId).order_id
    ).toHaveLength(35)
    let error: RefpayValidationError | undefined
    try {
      buildCreatePaymentBody({ ...ids, orderId: "x".repeat(36), amountCents: 1 }, requestId)
    } catch (e) {
      error = e as RefpayValidationError
    }
    expect(error).toBeInstanceOf(RefpayValidationError)
    expect(error!.code).toBe("CLIENT_VALIDATION")
    expect(error!.status).toBeUndefined()
    expect(error!.message).toBe(
      "REFPAY create payment refused before sending: orderId must be at most 35 characters (got 36)"
    )
  })

  it("refuses an empty order id and non-UUID identifiers", () => {
    expect(() => buildCreatePaymentBody({ ...ids, orderId: "", amountCents: 1 }, requestId)).toThrow(
      "orderId is required"
    )
    expect(() =>
      buildCreatePaymentBody({ ...ids, paymentId: "pay_01", orderId: "o", amountCents: 1 }, requestId)
    ).toThrow("paymentId must be a UUID")
    expect(() => buildCreatePaymentBody({ ...ids, orderId: "o", amountCents: 1 }, "nope")).toThrow(
      "requestId must be a UUID"
    )
  })
})

describe("buildCancelBody", () => {
  it("builds the contract's cancel/refund body", () => {
    expect(buildCancelBody({ ...ids, amountCents: 500 }, requestId)).toEqual({
      idempotency_key: ids.idempotencyKey,
      request_id: requestId,
      payment_id: ids.paymentId,
      amount: 500,
      payment_method: "CASH_PAYMENT",
    })
  })

  it("refuses a fractional amount", () => {
    expect(() => buildCancelBody({ ...ids, amountCents: 5.5 }, requestId)).toThrow(
      "REFPAY cancel/refund refused before sending: amountCents must be a whole number of cents greater than 0 (got 5.5)"
    )
  })
})

describe("fillPaymentIdPath", () => {
  it("leaves a path without the placeholder alone", () => {
    expect(fillPaymentIdPath("cancel/refund", "/v2/payments/cancel", "p1")).toBe("/v2/payments/cancel")
  })
  it("puts the id in, URL-encoded", () => {
    expect(fillPaymentIdPath("get payment", "/info/{payment_id}", "a/b?c")).toBe("/info/a%2Fb%3Fc")
  })
  it("refuses an empty id", () => {
    expect(() => fillPaymentIdPath("get payment", "/info/{payment_id}", "")).toThrow(RefpayValidationError)
  })
})

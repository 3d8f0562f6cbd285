import {
  cancellationKeyFor,
  creationKeyFor,
  IdentifierTooLongError,
  orderIdFor,
  paymentIdFor,
  refundKeyFor,
  sessionIdFromOrderId,
  uuidFromName,
} from "../identifiers"

const SESSION = "payses_01JZ8X4K7M2N3P4Q5R6S7T8V9W"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("identifiers derived from the payment session", () => {
  it("builds RFC 4122 version 5 UUIDs, equal for equal names", () => {
    expect(uuidFromName("a")).toMatch(UUID)
    expect(uuidFromName("a")).toBe(uuidFromName("a"))
    expect(uuidFromName("a")).not.toBe(uuidFromName("b"))
  })

  it("gives a retried completion the same payment_id and idempotency_key", () => {
    expect(paymentIdFor(SESSION, 0)).toBe(paymentIdFor(SESSION, 0))
    expect(creationKeyFor(SESSION, 0)).toBe(creationKeyFor(SESSION, 0))
    expect(paymentIdFor(SESSION, 0)).not.toBe(creationKeyFor(SESSION, 0))
  })

  it("gives a replacement reference new identifiers", () => {
    expect(paymentIdFor(SESSION, 1)).not.toBe(paymentIdFor(SESSION, 0))
    expect(creationKeyFor(SESSION, 1)).not.toBe(creationKeyFor(SESSION, 0))
    expect(orderIdFor(SESSION, 1)).not.toBe(orderIdFor(SESSION, 0))
  })

  it("keeps order_id within 35 characters and maps it back to the session", () => {
    expect(orderIdFor(SESSION, 0)).toBe("ps_01JZ8X4K7M2N3P4Q5R6S7T8V9W")
    expect(orderIdFor(SESSION, 12)).toBe("ps_01JZ8X4K7M2N3P4Q5R6S7T8V9W-12")
    for (const generation of [0, 1, 99999]) {
      const orderId = orderIdFor(SESSION, generation)
      expect(orderId.length).toBeLessThanOrEqual(35)
      expect(sessionIdFromOrderId(orderId)).toBe(SESSION)
    }
  })

  it("refuses an order_id over 35 characters with a clear error instead of truncating it", () => {
    expect(() => orderIdFor("custom_session_id_that_is_far_too_long_for_refpay", 0)).toThrow(IdentifierTooLongError)
    expect(() => orderIdFor(SESSION, 1234567)).toThrow(/at most 35/)
  })

  it("derives distinct keys for cancellation and for each refund", () => {
    const paymentId = paymentIdFor(SESSION, 0)
    expect(cancellationKeyFor(paymentId)).toMatch(UUID)
    expect(refundKeyFor(paymentId, "ref_1")).not.toBe(refundKeyFor(paymentId, "ref_2"))
    expect(refundKeyFor(paymentId, "ref_1")).toBe(refundKeyFor(paymentId, "ref_1"))
  })
})

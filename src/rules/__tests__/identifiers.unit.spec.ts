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
import { v5 as uuidv5 } from "uuid"

const SESSION = "payses_01JZ8X4K7M2N3P4Q5R6S7T8V9W"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("identifiers derived from the payment session", () => {
  it("builds RFC 4122 version 5 UUIDs, equal for equal names", () => {
    expect(uuidFromName("a")).toMatch(UUID)
    expect(uuidFromName("a")).toBe(uuidFromName("a"))
    expect(uuidFromName("a")).not.toBe(uuidFromName("b"))
  })

  it("derives the same ids as ever: live payments keep their payment_id and keys (fixed vectors)", () => {
    expect(uuidFromName("a")).toBe("5a6f6489-8260-5e12-a341-bca3c7a08a49")
    expect(uuidFromName("pagamento-ção")).toBe("391f0a35-acd4-5564-a79d-00215b2e407e") // names are hashed as UTF-8
    const paymentId = paymentIdFor(SESSION, 0)
    expect(paymentId).toBe("15c2bd4a-f73c-53ce-a9f1-6ca7f76f2ad3")
    expect(creationKeyFor(SESSION, 0)).toBe("34698fdd-ad05-5a82-a21d-979f96b06879")
    expect(paymentIdFor(SESSION, 1)).toBe("1cf0fe3d-66cc-5a87-89ed-b8c47cc090f0")
    expect(cancellationKeyFor(paymentId)).toBe("f178eda7-ea25-59bf-bf2b-fba3858d6ee2")
    expect(refundKeyFor(paymentId, "ref_1")).toBe("bd6378ad-7f60-513c-98f4-367fb546d677")
  })

  it("uses the RFC 9562 version 5 algorithm (the RFC's own vector, appendix A.4)", () => {
    expect(uuidv5("www.example.com", uuidv5.DNS)).toBe("2ed6657d-e927-568b-95e1-2665a8aea6a2")
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

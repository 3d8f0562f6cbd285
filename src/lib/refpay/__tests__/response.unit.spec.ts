import { RefpayResponseError, RefpayValidationError } from "../errors"
import type { HttpResponse } from "../http"
import { createRedactor, type Redactor } from "../redact"
import { readResponse } from "../response"
import { PaymentCreationResponseSchema } from "../payment-schemas"

/**
 * readResponse: the success path only parses (nothing is redacted, summarized or stringified), and every failure
 * path still goes through the redactor.
 */

const body = {
  payment_id: "7c1e2d3f-2222-4b8e-9d55-2b1f7d7c0003",
  status: "WAITING",
  amount: "1999",
  additional_data: { entity: "01234", reference: "000123450" },
}

function spyRedactor(): Redactor & { calls: () => number } {
  const real = createRedactor(["sandbox-client-secret"])
  const redactText = jest.fn(real.redactText)
  const redactValue = jest.fn(real.redactValue)
  return { ...real, redactText, redactValue, calls: () => redactText.mock.calls.length + redactValue.mock.calls.length }
}

const answer = (status: number, answerBody: unknown): HttpResponse => ({
  status,
  headers: {},
  body: answerBody,
  attempts: 1,
})

describe("readResponse", () => {
  it("parses a valid 2xx body without touching the redactor", () => {
    const redactor = spyRedactor()
    const parsed = readResponse(answer(201, body), PaymentCreationResponseSchema, {
      operation: "create payment",
      redactor,
    })
    expect(parsed).toMatchObject({
      paymentId: body.payment_id,
      amount: "1999",
      amountCents: 1999,
      reference: "000123450",
    })
    expect(redactor.calls()).toBe(0)
  })

  it("redacts a 2xx body that breaks its schema", () => {
    const redactor = spyRedactor()
    const bad = { ...body, amount: "19.99", echo: "sandbox-client-secret" }
    const error = (() => {
      try {
        readResponse(answer(201, bad), PaymentCreationResponseSchema, { operation: "create payment", redactor })
      } catch (e) {
        return e as RefpayResponseError
      }
    })()
    expect(error).toBeInstanceOf(RefpayResponseError)
    expect(error!.issues[0]).toMatch(/^amount: /)
    expect(JSON.stringify(error)).not.toContain("sandbox-client-secret")
    expect(redactor.calls()).toBeGreaterThan(0)
  })

  it("redacts a non-2xx answer", () => {
    const redactor = spyRedactor()
    const refused = { error_code: "INVALID_REQUEST", message: "bad sandbox-client-secret", details: [] }
    expect(() =>
      readResponse(answer(400, refused), PaymentCreationResponseSchema, { operation: "create payment", redactor })
    ).toThrow(RefpayValidationError)
    expect(redactor.calls()).toBeGreaterThan(0)
  })
})

import { MedusaError } from "@medusajs/framework/utils"
import {
  createApiError,
  createResponseError,
  createTransportError,
  RefpayConfigError,
  type RefpayError,
} from "../../lib/refpay/errors"
import { IdentifierTooLongError, orderIdFor } from "../identifiers"
import { SHOPPER_PAYMENT_UNAVAILABLE, toMedusaError } from "../platform-errors"

const api = (status: number, body: unknown = undefined): RefpayError =>
  createApiError({ operation: "create payment", status, body })

const PLATFORM_400 = {
  error_code: "INVALID_CUSTOMER",
  message: "customer.phone_number is not valid",
  details: [{ field: "phone_number", message: "bad format" }],
}

function tooLong(): unknown {
  try {
    return orderIdFor("payses_01JZ8X4K7M2N3P4Q5R6S7T8V9W", 1_000_000)
  } catch (error) {
    return error
  }
}

/** Everything a store API answer could carry that belongs to the log or the admin instead. */
const DETAIL =
  /REFPAY_[A-Z]|client id|credentials|HTTP|\b(400|401|403|404|409|429|500|503)\b|INVALID_CUSTOMER|phone_number|ECONNREFUSED|order_id|payses_|cents|unexpected/i

describe("toMedusaError for a shopper (the store API: cart completion, payment sessions)", () => {
  it.each<[string, unknown]>([
    [
      "credentials refused (401)",
      api(401, { error: "invalid_client", error_description: "Client authentication failed" }),
    ],
    ["scope refused (403)", api(403)],
    ["a platform 5xx after the retries", api(503)],
    [
      "a connection failure after the retries",
      createTransportError({
        operation: "create payment",
        code: "ECONNREFUSED",
        timeout: false,
        cause: new Error("connect ECONNREFUSED 127.0.0.1:4010"),
        attempts: 2,
      }),
    ],
    [
      "a timeout after the retries",
      createTransportError({
        operation: "create payment",
        code: "UND_ERR_HEADERS_TIMEOUT",
        timeout: true,
        cause: new Error("Headers Timeout Error"),
        attempts: 2,
      }),
    ],
    ["the platform refusing the request with its own detail (400)", api(400, PLATFORM_400)],
    ["rate limiting (429)", api(429)],
    [
      "a conflict that is not ours to adopt (409)",
      api(409, { error_code: "DUPLICATE_ORDER_ID", message: "order_id ps_x exists" }),
    ],
    ["not found (404)", api(404)],
    [
      "a 2xx body that breaks its schema",
      createResponseError({
        operation: "create payment",
        status: 200,
        body: {},
        issues: ["payment_id: expected string"],
      }),
    ],
    ["a client misconfiguration", new RefpayConfigError("paymentsUrl (REFPAY_PAYMENTS_URL) is not a URL")],
    ["an order_id over the platform's limit", tooLong()],
    [
      "our own 500-type error with amounts in it",
      new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        "REFPAY returned 2400 cents for a payment of 2498 cents; reference not used"
      ),
    ],
    ["a plain Error", new Error("Cannot read properties of undefined (reading 'payment_id')")],
    ["a thrown string", "socket hang up"],
  ])("%s: one generic payment error, no detail, never a 500", (_name, error) => {
    const shown = toMedusaError(error, "create a payment reference", "shopper") as MedusaError
    expect(shown).toBeInstanceOf(MedusaError)
    expect(shown.type).toBe(MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR)
    expect(shown.message).toBe(SHOPPER_PAYMENT_UNAVAILABLE)
    expect(shown.message).not.toMatch(DETAIL)
  })

  it("is the audience when none is named: a new call site shows a shopper nothing it should not see", () => {
    const shown = toMedusaError(api(401), "create a payment reference") as MedusaError
    expect(shown.message).toBe(SHOPPER_PAYMENT_UNAVAILABLE)
  })

  it("says it in Portuguese, then in English", () => {
    const [pt, en] = SHOPPER_PAYMENT_UNAVAILABLE.split(" / ")
    expect(pt).toBe(
      "O pagamento por referência REFPAY não está disponível neste momento. Tente novamente ou escolha outro método de pagamento."
    )
    expect(en).toBe("REFPAY is unavailable right now; please try again or choose another payment method.")
  })

  it.each([
    [
      "euros only",
      new MedusaError(MedusaError.Types.INVALID_DATA, "REFPAY accepts payments in euros only; this cart is in USD."),
    ],
    [
      "Portugal only",
      new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "REFPAY is available in Portugal only: the billing address is in ES."
      ),
    ],
    [
      "already a payment error",
      new MedusaError(MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR, SHOPPER_PAYMENT_UNAVAILABLE),
    ],
  ])("passes our own 4xx refusal through unchanged (%s): the shopper can act on it", (_name, error) => {
    expect(toMedusaError(error, "create a payment reference", "shopper")).toBe(error)
  })
})

describe("toMedusaError for the admin (the plugin's admin routes)", () => {
  it.each<[string, unknown, string, RegExp]>([
    [
      "credentials refused",
      api(401),
      MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      /refused the shop's credentials while trying to check the payment status \(HTTP 401\)\. The shop owner must check REFPAY_CLIENT_ID/,
    ],
    [
      "scope refused",
      api(403),
      MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      /refused the shop's credentials .*\(HTTP 403\)/,
    ],
    [
      "a 5xx",
      api(500),
      MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      /^REFPAY is unavailable right now and could not check the payment status\./,
    ],
    ["rate limiting", api(429), MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR, /^REFPAY is unavailable right now/],
    [
      "the platform's refusal, with its detail",
      api(400, PLATFORM_400),
      MedusaError.Types.INVALID_DATA,
      /^REFPAY refused the request to check the payment status: .*INVALID_CUSTOMER.*customer\.phone_number is not valid/,
    ],
    [
      "anything else, with its detail",
      api(404),
      MedusaError.Types.UNEXPECTED_STATE,
      /^REFPAY could not check the payment status: REFPAY create payment failed \(404/,
    ],
  ])("%s keeps the detail a shop owner acts on", (_name, error, type, message) => {
    const shown = toMedusaError(error, "check the payment status", "admin") as MedusaError
    expect(shown.type).toBe(type)
    expect(shown.message).toMatch(message)
  })

  it("returns a MedusaError or a non-platform error as it is", () => {
    const medusa = new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "REFPAY returned 2400 cents")
    const plain = tooLong()
    expect(plain).toBeInstanceOf(IdentifierTooLongError)
    expect(toMedusaError(medusa, "x", "admin")).toBe(medusa)
    expect(toMedusaError(plain, "x", "admin")).toBe(plain)
  })
})

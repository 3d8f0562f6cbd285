import { MedusaError } from "@medusajs/framework/utils"
import {
  RefpayAuthenticationError,
  RefpayConnectionError,
  RefpayError,
  RefpayPermissionError,
  RefpayRateLimitError,
  RefpayServerError,
  RefpayValidationError,
} from "../lib/refpay"

/**
 * Who reads the message. `shopper`: anything the store API can answer (the provider's methods run on cart completion
 * and payment-session requests from anonymous shoppers, and cannot tell who called them). `admin`: the plugin's own
 * admin routes, whose reader is the shop owner.
 */
export type ErrorAudience = "shopper" | "admin"

/**
 * What a shopper reads, in both languages: a storefront shows the message as it is and the store API does not tell the
 * provider the shopper's language. REFPAY is for Portuguese shops: Portuguese first, then English.
 */
export function shopperSentence(pt: string, en: string): string {
  return `${pt} / ${en}`
}

/**
 * The one sentence a shopper gets for any failure of the platform or of the plugin: nothing about the shop's
 * configuration or the platform's answer (that goes to the log, and to the admin).
 */
export const SHOPPER_PAYMENT_UNAVAILABLE = shopperSentence(
  "O pagamento por referência REFPAY não está disponível neste momento. Tente novamente ou escolha outro método de pagamento.",
  "REFPAY is unavailable right now; please try again or choose another payment method."
)

/**
 * Refusals a shopper may read as written: the 4xx errors the plugin writes for them ("euros only", "Portugal only",
 * "the cart total changed"). Anything else (a 500-type error, a platform error, a bug) gets the generic sentence: Medusa
 * answers an UNEXPECTED_STATE with a 500 carrying its message.
 */
const SHOPPER_READABLE_TYPES = new Set<string>([
  MedusaError.Types.NOT_FOUND,
  MedusaError.Types.NOT_ALLOWED,
  MedusaError.Types.INVALID_DATA,
  MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
  MedusaError.Types.PAYMENT_REQUIRES_MORE_ERROR,
])

type Failure = "credentials" | "unavailable" | "refused" | "unexpected"

/** The kind of a platform client failure; the first class that matches wins (RefpayTimeoutError is a connection error). */
const FAILURES: [abstract new (...args: never[]) => RefpayError, Failure][] = [
  [RefpayAuthenticationError, "credentials"],
  [RefpayPermissionError, "credentials"],
  [RefpayServerError, "unavailable"],
  [RefpayConnectionError, "unavailable"],
  [RefpayRateLimitError, "unavailable"],
  [RefpayValidationError, "refused"],
]

/** What the shop owner reads for each kind: what to fix, with the platform's detail (already redacted by the client). */
const ADMIN_ERRORS: Record<Failure, (error: RefpayError, action: string) => MedusaError> = {
  credentials: (error, action) =>
    new MedusaError(
      MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      `REFPAY refused the shop's credentials while trying to ${action} (HTTP ${error.status}). ` +
        "The shop owner must check REFPAY_CLIENT_ID, REFPAY_CLIENT_SECRET, REFPAY_SCOPE and REFPAY_ENVIRONMENT."
    ),
  unavailable: (_error, action) =>
    new MedusaError(
      MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      `REFPAY is unavailable right now and could not ${action}. Nothing was charged; please try again in a moment.`
    ),
  refused: (error, action) =>
    new MedusaError(MedusaError.Types.INVALID_DATA, `REFPAY refused the request to ${action}: ${error.message}`),
  unexpected: (error, action) =>
    new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `REFPAY could not ${action}: ${error.message}`),
}

/**
 * Turns a failure into the MedusaError its reader gets. A shopper gets the plugin's own 4xx refusals as written and
 * one generic sentence for everything else; the caller logs the detail (the provider's `fail()` does). The shop owner
 * gets a message per kind of platform failure, with what to check.
 */
export function toMedusaError(error: unknown, action: string, audience: ErrorAudience = "shopper"): Error {
  if (audience === "shopper") {
    if (MedusaError.isMedusaError(error) && SHOPPER_READABLE_TYPES.has((error as MedusaError).type))
      return error as MedusaError
    return new MedusaError(MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR, SHOPPER_PAYMENT_UNAVAILABLE)
  }
  if (MedusaError.isMedusaError(error)) return error as MedusaError
  if (!(error instanceof RefpayError)) return error instanceof Error ? error : new Error(String(error))
  const failure = FAILURES.find(([kind]) => error instanceof kind)?.[1] ?? "unexpected"
  return ADMIN_ERRORS[failure](error, action)
}

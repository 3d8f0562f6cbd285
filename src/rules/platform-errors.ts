import { MedusaError } from "@medusajs/framework/utils"
import {
  RefpayAuthenticationError,
  RefpayConnectionError,
  RefpayError,
  RefpayPermissionError,
  RefpayServerError,
  RefpayValidationError,
} from "../lib/refpay"

/**
 * Turns a platform client failure into a MedusaError for the storefront or admin, with a message a shopper or shop
 * owner can act on. The platform's detail (already redacted by the client) goes to the log, not to the shopper.
 */
export function toMedusaError(error: unknown, action: string): Error {
  if (error instanceof MedusaError) return error
  if (!(error instanceof RefpayError)) return error instanceof Error ? error : new Error(String(error))

  if (error instanceof RefpayAuthenticationError || error instanceof RefpayPermissionError) {
    return new MedusaError(
      MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      `REFPAY refused the shop's credentials while trying to ${action} (HTTP ${error.status}). ` +
        "The shop owner must check REFPAY_CLIENT_ID, REFPAY_CLIENT_SECRET, REFPAY_SCOPE and REFPAY_ENVIRONMENT."
    )
  }
  if (error instanceof RefpayServerError || error instanceof RefpayConnectionError) {
    return new MedusaError(
      MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      `REFPAY is unavailable right now and could not ${action}. Nothing was charged; please try again in a moment.`
    )
  }
  if (error instanceof RefpayValidationError) {
    return new MedusaError(MedusaError.Types.INVALID_DATA, `REFPAY refused the request to ${action}: ${error.message}`)
  }
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `REFPAY could not ${action}: ${error.message}`)
}

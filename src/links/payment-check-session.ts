import { defineLink } from "@medusajs/framework/utils"
import PaymentModule from "@medusajs/medusa/payment"
import RefpayModule from "../modules/refpay"

/**
 * A REFPAY payment check and the Medusa payment session it checks, so `query.graph` reads a check with its session
 * (`refpay_payment_check` with `payment_session.*`) in one call, and the REFPAY module never reads the payment
 * module's tables. Read-only: the check's own `session_id` is the link, so there is no link table to migrate or keep
 * in step (Medusa 2.18.0 to 2.21.2 define read-only links alike). A check whose session Medusa deleted reads with
 * `payment_session` null; the check keeps its own copy of the reference for that case.
 */
export default defineLink(
  { linkable: RefpayModule.linkable.refpayPaymentCheck, field: "session_id" },
  PaymentModule.linkable.paymentSession,
  { readOnly: true }
)

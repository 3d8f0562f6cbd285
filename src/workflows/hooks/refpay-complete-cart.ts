import { isDeepStrictEqual } from "node:util"
import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import { assertRefpayCheckoutAllowed, type CheckoutCart } from "../../rules/checkout-rules"
import { customerFromCart } from "../../rules/customer"
import { writeSession } from "../refpay-sync/steps/session-write"

/**
 * Runs before the order is created and the reference requested, so a refused cart leaves nothing behind. For an
 * accepted REFPAY cart it also hands the cart's contact details to the session (Medusa gives providers customer
 * data only for logged-in customers): the provider sends them with the creation request.
 *
 * Everything it needs is in the cart the workflow already loaded (session data included), so it reads nothing, and
 * it writes the session's data through the payment module's data layer: `updatePaymentSession` would read the
 * session again and call the provider's `updatePayment` for a change that is not an amount change. A completion
 * that is retried with the same details writes nothing.
 *
 * Why a validate hook writes: it is the only hook 2.21.2's completeCartWorkflow exposes (`hooks: [validate]`; its
 * `beforePaymentAuthorization` and `orderCreated` hooks are created but not returned, so nothing can register on them).
 */
completeCartWorkflow.hooks.validate(async ({ cart }, { container }) => {
  const checkoutCart = cart as CheckoutCart
  const session = assertRefpayCheckoutAllowed(checkoutCart)
  if (!session || session.data?.refpay) return
  const customer = customerFromCart(checkoutCart)
  const started = session.data?.completion_started_at
  if (started && isDeepStrictEqual(session.data?.customer, customer)) return
  // The mark that a cart completion started this session: only such a session is resumed by the poll job.
  const completion_started_at = started ?? new Date().toISOString()
  await writeSession(container, { id: session.id, data: { ...session.data, customer, completion_started_at } })
})

import { isDeepStrictEqual } from "node:util"
import { onCartCompletionValidate } from "../../medusa-compat/cart-completion-hook"
import { refpayProviderFor } from "../../providers/refpay/refpay-providers"
import { assertRefpayCheckoutAllowed, assertWithinAmountLimits, type CheckoutCart } from "../../rules/checkout-rules"
import { customerFromCart } from "../../rules/customer"
import { readSessionData } from "../../rules/session-data"
import { writeSession } from "../refpay-sync/steps/session-write"

/**
 * Runs before the order is created and the reference requested, so a refused cart leaves nothing behind: the
 * checkout rules, then the account's amount limits on the amount the reference would be for (the session's,
 * which the rules just found equal to the cart's total), as they are now, not as they were when the session was
 * created. For an accepted REFPAY cart it also hands the cart's contact details to the session (Medusa gives
 * providers customer data only for logged-in customers): the provider sends them with the creation request.
 *
 * Everything it needs is in the cart the workflow already loaded (session data included) and in the account's
 * settings, so it reads nothing from the database, and it writes the session's data through the payment module's
 * data layer: `updatePaymentSession` would read the session again and call the provider's `updatePayment` for a
 * change that is not an amount change. A completion that is retried with the same details writes nothing.
 * Why a validate hook writes: see medusa-compat/cart-completion-hook.ts.
 */
onCartCompletionValidate(async ({ cart }, { container }) => {
  const checkoutCart = cart as CheckoutCart
  const session = assertRefpayCheckoutAllowed(checkoutCart)
  if (!session || session.data?.refpay) return
  const { amountLimits } = await refpayProviderFor(container, session.provider_id!)
  assertWithinAmountLimits(readSessionData(session.data ?? undefined).amount_cents, amountLimits)
  const customer = customerFromCart(checkoutCart)
  const started = session.data?.completion_started_at
  if (started && isDeepStrictEqual(session.data?.customer, customer)) return
  // The mark that a cart completion started this session: only such a session is resumed by the poll job.
  const completion_started_at = started ?? new Date().toISOString()
  await writeSession(container, { id: session.id, data: { ...session.data, customer, completion_started_at } })
})

import type { IPaymentModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import { assertRefpayCheckoutAllowed, customerFromCart, type CheckoutCart } from "../../providers/refpay/checkout-rules"

/**
 * Runs before the order is created and the reference requested, so a refused cart leaves nothing behind. For an
 * accepted REFPAY cart it also hands the cart's contact details to the session (Medusa gives providers customer
 * data only for logged-in customers): the provider sends them with the creation request.
 */
completeCartWorkflow.hooks.validate(async ({ cart }, { container }) => {
  const checkoutCart = cart as CheckoutCart
  const session = assertRefpayCheckoutAllowed(checkoutCart)
  if (!session || session.data?.refpay) return
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  await payments.updatePaymentSession({
    id: session.id,
    data: { ...session.data, customer: customerFromCart(checkoutCart) },
    amount: session.amount as number,
    currency_code: session.currency_code ?? "eur",
  })
})

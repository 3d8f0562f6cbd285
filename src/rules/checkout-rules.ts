import { MedusaError } from "@medusajs/framework/utils"
import { amountLimitMessage, amountLimitRefusal, type AmountLimits } from "./amount-limits"
import { toCents } from "./money"
import { shopperSentence } from "./platform-errors"
import { isRefpayProviderId } from "./provider-ids"

/** The parts of a cart (as completeCartWorkflow loads it) that decide whether REFPAY may complete it. */
export interface CheckoutAddress {
  first_name?: string | null
  last_name?: string | null
  company?: string | null
  address_1?: string | null
  address_2?: string | null
  city?: string | null
  province?: string | null
  postal_code?: string | null
  country_code?: string | null
  phone?: string | null
}

export interface CheckoutSession {
  id: string
  provider_id?: string | null
  status?: string | null
  amount?: unknown
  currency_code?: string | null
  data?: Record<string, unknown> | null
}

export interface CheckoutCart {
  email?: string | null
  currency_code?: string | null
  total?: unknown
  shipping_address?: CheckoutAddress | null
  billing_address?: CheckoutAddress | null
  payment_collection?: { payment_sessions?: CheckoutSession[] | null } | null
}

/**
 * Rules checked before Medusa creates the order, so a refused cart leaves nothing behind: REFPAY is for Portugal
 * and euros only (spec 1.5, 8), and the reference must be for exactly what the cart costs now (Medusa itself does
 * not compare session amounts with the cart total at completion).
 */
export function assertRefpayCheckoutAllowed(cart: CheckoutCart): CheckoutSession | undefined {
  const session = cart.payment_collection?.payment_sessions?.find(
    (s) => isRefpayProviderId(s.provider_id) && s.status !== "canceled"
  )
  if (!session) return undefined

  if (cart.currency_code?.toLowerCase() !== "eur") {
    refuse(`REFPAY accepts payments in euros only; this cart is in ${String(cart.currency_code).toUpperCase()}.`)
  }
  const countries = [
    ["shipping", cart.shipping_address?.country_code],
    ["billing", cart.billing_address?.country_code],
  ] as const
  for (const [kind, country] of countries) {
    if (country && country.toLowerCase() !== "pt") {
      refuse(
        `REFPAY is available in Portugal only: the ${kind} address is in ${country.toUpperCase()}. Choose another payment method or a Portuguese address.`
      )
    }
  }
  if (!cart.shipping_address?.country_code && !cart.billing_address?.country_code) {
    refuse("REFPAY is available in Portugal only: add a Portuguese billing or shipping address.")
  }
  const sessionCents = session.data?.amount_cents
  if (cart.total !== undefined && cart.total !== null && sessionCents !== toCents(cart.total as number)) {
    refuse(
      "The cart total changed after REFPAY was selected. Select the payment method again to get a reference for the new total."
    )
  }
  return session
}

/**
 * No reference for an amount outside the account's limits: the network would refuse it once the order exists.
 * Checked when the storefront creates the REFPAY session, again at cart completion before the order (the total may
 * have changed since), and by the provider before it creates a reference. A refusal a shopper may read as written
 * (NOT_ALLOWED: `toMedusaError` passes it through), in both languages since the caller cannot tell which one they read.
 */
export function assertWithinAmountLimits(amountCents: number, limits: AmountLimits): void {
  const refusal = amountLimitRefusal(amountCents, limits)
  if (!refusal) return
  refuse(
    shopperSentence(
      `${amountLimitMessage(refusal, "pt")} Escolha outro método de pagamento.`,
      `${amountLimitMessage(refusal, "en")} Please choose another payment method.`
    )
  )
}

function refuse(message: string): never {
  throw new MedusaError(MedusaError.Types.NOT_ALLOWED, message)
}

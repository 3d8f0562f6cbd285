/** What a starter's checkout needs to list REFPAY among its payment methods (its payment-info map and place-order branch). */

/** True for every REFPAY account (`pp_refpay_<id>`), as the plugin registers them. */
export function isRefpayProvider(providerId: string | null | undefined): boolean {
  return !!providerId?.startsWith("pp_refpay_")
}

/** The title a checkout shows for REFPAY, in the starters' `paymentInfoMap` shape. */
export const REFPAY_PAYMENT_INFO = {
  pt: { title: "Referência Multibanco" },
  en: { title: "Multibanco reference" },
} as const

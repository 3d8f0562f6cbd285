/** Payment provider ids of REFPAY sessions: `pp_refpay_<id>` whatever id the shop registered it under. */
export function isRefpayProviderId(providerId: string | null | undefined): boolean {
  return typeof providerId === "string" && providerId.startsWith("pp_refpay_")
}

/**
 * The payment provider id a webhook URL or event names: Medusa's route takes `/hooks/payment/refpay_refpay` and
 * `/hooks/payment/pp_refpay_refpay` alike, and its event carries the id as the URL gave it.
 */
export function providerIdFromRoute(provider: string): string {
  return provider.startsWith("pp_") ? provider : `pp_${provider}`
}

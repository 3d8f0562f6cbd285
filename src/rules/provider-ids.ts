/** Payment provider ids of REFPAY sessions: `pp_refpay_<id>` whatever id the shop registered it under. */
export function isRefpayProviderId(providerId: string | null | undefined): boolean {
  return typeof providerId === "string" && providerId.startsWith("pp_refpay_")
}

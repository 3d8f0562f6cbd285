/**
 * medusa-payment-refpay/storefront: the REFPAY parts of a Medusa storefront, for any React app (Next.js or not).
 * Import the styles once (`medusa-payment-refpay/storefront/styles.css`), make a client with the shop's JS SDK or its
 * URL and publishable key, and render the components. No server code, no Next.js.
 */
export { createRefpayClient, refpayFailure } from "./client.js"
export type { RefpayClient, RefpayClientOptions, RefpaySdkLike, RefpayStoreCall } from "./client.js"
export { useRefpayClient } from "./connection.js"
export type { RefpayConnection } from "./connection.js"
export { RefpayPaymentInstructions } from "./payment-instructions.js"
export type { RefpayPaymentInstructionsProps } from "./payment-instructions.js"
export { RefpayOutstandingAmounts, RefpayAmountDue } from "./outstanding-amounts.js"
export type { RefpayOutstandingAmountsProps } from "./outstanding-amounts.js"
export { RefpayPaymentCollection } from "./payment-collection.js"
export type { RefpayPaymentCollectionProps } from "./payment-collection.js"
export { RefpayReferenceDetails, refpayStatusLabel } from "./reference-details.js"
export { useRefpayOrderPayment, useRefpayPaymentCollection } from "./use-refpay.js"
export type { RefpayOrderPaymentState, RefpayPaymentCollectionState } from "./use-refpay.js"
export { formatRefpayCents, formatRefpayDeadline } from "./format.js"
export { REFPAY_TEXTS, textsFor } from "./texts.js"
export type { RefpayLocale, RefpayTexts } from "./texts.js"
export { isRefpayProvider, REFPAY_PAYMENT_INFO } from "./provider.js"
export type * from "./types.js"

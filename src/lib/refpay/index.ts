/** Public surface of the REFPAY platform client. */
export { createRefpayClient, type RefpayClient } from "./client"
export {
  DEFAULT_PATHS,
  DEFAULT_REQUESTER,
  DEFAULT_RETRIES,
  DEFAULT_T2_AUTHORIZATION_FORM,
  DEFAULT_TIMEOUTS,
  DEFAULT_TOKEN_REFRESH_WINDOW_SECONDS,
  joinUrl,
  resolveRefpayConfig,
  type RefpayClientConfig,
  type RefpayLogger,
  type RefpayPaths,
  type RefpayRequester,
  type RefpayRetryPolicy,
  type RefpayT2AuthorizationForm,
  type RefpayTimeouts,
  type RefpayTokenInterface,
  type ResolvedRefpayConfig,
} from "./config"
export {
  RefpayAuthenticationError,
  RefpayConfigError,
  RefpayConflictError,
  RefpayConnectionError,
  RefpayError,
  RefpayNotFoundError,
  RefpayPermissionError,
  RefpayRateLimitError,
  RefpayResponseError,
  RefpayServerError,
  RefpayTimeoutError,
  RefpayValidationError,
} from "./errors"
export { createRedactor, REDACTED, redactUrl, type Redactor } from "./redact"
export {
  MAX_ORDER_ID_LENGTH,
  REFPAY_BRAND,
  REFPAY_CURRENCY,
  REFPAY_PAYMENT_METHOD,
  type CancelOrRefundInput,
  type CreatePaymentInput,
  type RefpayAddress,
  type RefpayCustomer,
} from "./requests"
export type {
  RefpayCancelResult,
  RefpayCreatedPayment,
  RefpayPaymentRecord,
  RefpayPaymentStatus,
} from "./payment-schemas"

import { joinUrl, resolveRefpayConfig, type RefpayClientConfig, type ResolvedRefpayConfig } from "./config"
import { createHttpClient } from "./http"
import { createPaymentsApi } from "./payments"
import { createRedactor } from "./redact"
import type { CancelOrRefundInput, CreatePaymentInput } from "./requests"
import type { RefpayCancelResult, RefpayCreatedPayment, RefpayPaymentStatus } from "./payment-schemas"
import { createT1TokenSource } from "./t1-token-source"
import { createT2TokenSource } from "./t2-token-source"
import { TokenCache } from "./token-cache"
import type { TokenSource } from "./token-source"

/** The REFPAY platform client: tokens, payments, one HTTP pool. Holds no Medusa code; the provider wraps it. */
export interface RefpayClient {
  /** Creates a reference payment; the result carries entity and reference exactly as returned. */
  createPayment(input: CreatePaymentInput): Promise<RefpayCreatedPayment>
  /** Reads the payment's current status (polling fallback to webhooks). */
  getPayment(paymentId: string): Promise<RefpayPaymentStatus>
  /** Cancels a WAITING payment (full amount) or refunds an APPROVED one (full or partial); one call for both. */
  cancelOrRefund(input: CancelOrRefundInput): Promise<RefpayCancelResult>
  /** How many tokens have been requested from the token endpoint so far. */
  tokenRequests(): number
  /** Closes the connection pools; the client cannot be used afterwards. */
  close(): Promise<void>
}

export function createRefpayClient(config: RefpayClientConfig): RefpayClient {
  const resolved = resolveRefpayConfig(config)
  // Client id, secret, channel and scope are credentials (spec 5.1): scrubbed from every error and log line, as are
  // issued tokens.
  const redactor = createRedactor([resolved.clientSecret, resolved.clientId, resolved.channel, resolved.scope])
  const http = createHttpClient({
    timeouts: resolved.timeouts,
    retries: resolved.retries,
    connections: resolved.pool.connections,
    dispatcher: resolved.dispatcher,
    random: resolved.random,
    logger: resolved.logger,
    redactor,
  })
  const tokens = new TokenCache(createTokenSource(resolved, http, redactor), {
    refreshWindowSeconds: resolved.tokenRefreshWindowSeconds,
    authorizationForm: resolved.authorizationForm,
    now: resolved.now,
    logger: resolved.logger,
    redactor,
  })
  const payments = createPaymentsApi({
    http,
    tokens,
    paymentsUrl: resolved.paymentsUrl,
    paths: resolved.paths,
    logger: resolved.logger,
    redactor,
  })

  return {
    createPayment: (input) => payments.createPayment(input),
    getPayment: (paymentId) => payments.getPayment(paymentId),
    cancelOrRefund: (input) => payments.cancelOrRefund(input),
    tokenRequests: () => tokens.fetchCount,
    close: () => http.close(),
  }
}

function createTokenSource(
  config: ResolvedRefpayConfig,
  http: ReturnType<typeof createHttpClient>,
  redactor: ReturnType<typeof createRedactor>
): TokenSource {
  if (config.tokenInterface === "t1") {
    return createT1TokenSource({
      http,
      url: joinUrl(config.authUrl as string, config.paths.t1Token),
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      scope: config.scope,
      redactor,
    })
  }
  return createT2TokenSource({
    http,
    url: joinUrl(config.backofficeUrl as string, config.paths.t2Token),
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    channel: config.channel as string,
    scope: config.scope as string,
    requester: config.requester,
    redactor,
  })
}

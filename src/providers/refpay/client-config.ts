import type { RefpayClientConfig } from "../../lib/refpay"
import type { ResolvedRefpayOptions } from "../../config"

/**
 * The platform client's config, made from options `resolveOptions` has already checked: the options table is where
 * settings are validated, so this only renames. Without a logger (the provider adds its own) and with the client's
 * defaults wherever an option is unset (the two paths).
 */
export function clientConfigOf(settings: Readonly<ResolvedRefpayOptions>): RefpayClientConfig {
  return {
    tokenInterface: settings.tokenInterface,
    authUrl: settings.authUrl,
    backofficeUrl: settings.backofficeUrl,
    paymentsUrl: settings.paymentsUrl,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    channel: settings.channel,
    scope: settings.scope,
    requester: {
      branch: settings.requesterBranch,
      login: settings.requesterLogin,
      name: settings.requesterName,
      enrollmentNumber: settings.requesterEnrollmentNumber,
    },
    t2AuthorizationForm: settings.t2AuthorizationForm,
    paths: { cancelPayment: settings.cancelPath, paymentInfo: settings.paymentInfoPath },
    timeouts: {
      connectMs: settings.connectTimeoutMs,
      headersMs: settings.requestTimeoutMs,
      bodyMs: settings.bodyTimeoutMs,
    },
    retries: { maxRetries: settings.maxRetries },
  }
}

import { createRedactor, redactUrl } from "../../../../lib/refpay"
import {
  configuredSecrets,
  OPTION_FIELDS,
  optionVariables,
  SECRET_OPTIONS,
  type RefpayEnvOption,
  type RefpaySecretOption,
  type ResolvedRefpayOptions,
} from "../../../../config"

/** A credential as the admin sees it: whether it is set, never its value, a prefix or a length. */
export type CredentialState = "set" | "missing"

/** clientId -> client_id */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S

function snakeCase<S extends string>(name: S): SnakeCase<S> {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) as SnakeCase<S>
}

/**
 * The provider's settings as the server resolved them (options from medusa-config, else REFPAY_* variables, else
 * defaults), for the admin's REFPAY page. Built field by field from a whitelist: the settings object is never
 * spread, so a credential or a setting added later cannot reach a response by accident.
 */
export interface RefpaySettingsView {
  /** The account shown (`pp_refpay_<id>`). */
  provider_id: string
  /** Its seller account (option `account`): its settings are read from REFPAY_<ACCOUNT>_* first. */
  account: string | null
  environment: "sandbox" | "production"
  token_interface: "t1" | "t2"
  /** Addresses with `user:pass@`, query values and fragment shown as `***`: `https://***:***@host/path?token=***`. */
  urls: {
    /** T1 token service base URL (`/token` is appended); null when T2 is used. */
    auth_url: string | null
    /** T2 back-office base URL (`/v1/token` is appended); null when T1 is used. */
    backoffice_url: string | null
    payments_url: string
    /** Extra hosts accepted as sandbox hosts. */
    sandbox_hosts: string[]
  }
  /** Query values shown as `***`, like the URLs. */
  paths: { cancel_path: string; payment_info_path: string }
  /** T2 only: how the token is written in the Authorization header. */
  t2_authorization_form: "bearer" | "bare" | null
  /** Every option marked secret in OPTION_FIELDS (client_id, client_secret, channel, scope, webhook_secret). */
  credentials: Record<SnakeCase<RefpaySecretOption>, CredentialState>
  /** Which credentials the configured token interface needs: a missing required one is a configuration error. */
  required_credentials: (keyof RefpaySettingsView["credentials"])[]
  timeouts: { connect_ms: number; request_ms: number; body_ms: number }
  retries: { max_retries: number }
  expiry: {
    expiry_days: number
    expiry_grace_hours: number
    expiry_policy: "renew" | "cancel"
    max_renewals: number
    reminder_hours_before_expiry: number
    cancel_expired_orders: boolean
  }
  poll: { poll_batch_size: number; poll_interval_minutes: number; late_settlement_days: number }
  late_payments: { auto_refund_late_payments: boolean }
  /**
   * The environment variable behind each setting, for the page's "how to change it" hints: REFPAY_<ACCOUNT>_<NAME>
   * for a provider with an `account` option (REFPAY_<NAME> is read when that one is unset).
   */
  variables: Record<RefpayEnvOption, string>
}

function credential(value: string | undefined): CredentialState {
  return typeof value === "string" && value.trim() !== "" ? "set" : "missing"
}

export function buildSettingsView(settings: Readonly<ResolvedRefpayOptions>, providerId: string): RefpaySettingsView {
  const t1 = settings.tokenInterface === "t1"
  const account = settings.account ? settings.account : null
  // An address is shown with its user info, query values and fragment hidden (where tokens get written), and any
  // configured credential redacted wherever it was put.
  const redactor = createRedactor(configuredSecrets(settings))
  const address = (value: string) => redactor.redactText(redactUrl(value))
  return {
    provider_id: providerId,
    account,
    environment: settings.environment,
    token_interface: settings.tokenInterface,
    urls: {
      auth_url: t1 ? address(settings.authUrl) : null,
      backoffice_url: t1 ? null : address(settings.backofficeUrl),
      payments_url: address(settings.paymentsUrl),
      sandbox_hosts: [...settings.sandboxHosts],
    },
    paths: {
      cancel_path: address(settings.cancelPath ?? OPTION_FIELDS.cancelPath.clientDefault),
      payment_info_path: address(settings.paymentInfoPath ?? OPTION_FIELDS.paymentInfoPath.clientDefault),
    },
    t2_authorization_form: t1 ? null : settings.t2AuthorizationForm,
    credentials: Object.fromEntries(
      SECRET_OPTIONS.map((key) => [snakeCase(key), credential(settings[key])])
    ) as RefpaySettingsView["credentials"],
    required_credentials: [
      "client_id",
      "client_secret",
      ...(t1 ? [] : (["channel", "scope"] as const)),
      ...(settings.environment === "production" ? (["webhook_secret"] as const) : []),
    ],
    timeouts: {
      connect_ms: settings.connectTimeoutMs,
      request_ms: settings.requestTimeoutMs,
      body_ms: settings.bodyTimeoutMs,
    },
    retries: { max_retries: settings.maxRetries },
    expiry: {
      expiry_days: settings.expiryDays,
      expiry_grace_hours: settings.expiryGraceHours,
      expiry_policy: settings.expiryPolicy,
      max_renewals: settings.maxRenewals,
      reminder_hours_before_expiry: settings.reminderHoursBeforeExpiry,
      cancel_expired_orders: settings.cancelExpiredOrders,
    },
    poll: {
      poll_batch_size: settings.pollBatchSize,
      poll_interval_minutes: settings.pollIntervalMinutes,
      late_settlement_days: settings.lateSettlementDays,
    },
    late_payments: { auto_refund_late_payments: settings.autoRefundLatePayments },
    variables: optionVariables(account),
  }
}

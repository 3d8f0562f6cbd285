import { z } from "@medusajs/framework/zod"
import {
  DEFAULT_PATHS,
  DEFAULT_REQUESTER,
  DEFAULT_RETRIES,
  DEFAULT_T2_AUTHORIZATION_FORM,
  DEFAULT_TIMEOUTS,
} from "../lib/refpay"
import { STORE_PAYMENT_REQUESTS } from "../rules/outstanding"
import { amount, choice, flag, hostList, int, text } from "./value-types"

/**
 * One provider option, said once. A shop sets it in `medusa-config.ts` or, when left out there, through its
 * environment variable, so the usual configuration is environment-only:
 * `{ resolve: "medusa-payment-refpay/providers/refpay", id: "refpay", options: {} }`.
 * The zod schema, the environment reading, the error messages and the admin's settings view are made from
 * `OPTION_FIELDS`; docs/configuration.md's settings table joins it with each option's prose in
 * `docs/settings/<option>.md` (`node scripts/settings-table.js --write`).
 */
export interface OptionField {
  /**
   * The variable read when medusa-config leaves the option out. A provider with an `account` option reads
   * `REFPAY_<ACCOUNT>_<NAME>` first (`REFPAY_PORTO_CLIENT_ID`), then this one. None: medusa-config only.
   */
  env?: `REFPAY_${string}`
  /** Checks and converts the value (environment strings included); its `.default()` is the option's default. */
  schema: z.ZodType
  /** What to set the variable to when the value is wrong ("set REFPAY_X to <fix>"); without one, zod's message. */
  fix?: string
  /** A credential: belongs in the environment, never logged, shown by the admin only as set or missing. */
  secret?: true
  /** A URL the sandbox environment defaults to (the local sandbox); production has no default. */
  sandboxDefault?: string
  /** The platform client's default, used when the option is unset (the option then stays undefined). */
  clientDefault?: string
}

/** The local sandbox (`npx refpay-sandbox`), the default in the sandbox environment. */
export const SANDBOX_DEFAULT_URLS = {
  authUrl: "http://localhost:4010/auth",
  backofficeUrl: "http://localhost:4010/backoffice",
  paymentsUrl: "http://localhost:4010",
} as const

/** Every provider option, in the order docs/configuration.md lists them (what each is: docs/settings/<option>.md). */
export const OPTION_FIELDS = {
  account: {
    schema: z
      .string()
      .regex(/^[a-z0-9_]+$/i)
      .optional(),
    fix: 'letters, digits or _ (e.g. "porto" for REFPAY_PORTO_* variables)',
  },
  environment: {
    env: "REFPAY_ENVIRONMENT",
    ...choice(["sandbox", "production"], "sandbox"),
  },
  tokenInterface: {
    env: "REFPAY_TOKEN_INTERFACE",
    ...choice(["t1", "t2"], "t1"),
  },
  authUrl: {
    env: "REFPAY_AUTH_URL",
    schema: z.url().optional(),
    sandboxDefault: SANDBOX_DEFAULT_URLS.authUrl,
  },
  backofficeUrl: {
    env: "REFPAY_BACKOFFICE_URL",
    schema: z.url().optional(),
    sandboxDefault: SANDBOX_DEFAULT_URLS.backofficeUrl,
  },
  paymentsUrl: {
    env: "REFPAY_PAYMENTS_URL",
    schema: z.url().optional(),
    sandboxDefault: SANDBOX_DEFAULT_URLS.paymentsUrl,
  },
  clientId: {
    env: "REFPAY_CLIENT_ID",
    schema: text.min(1),
    secret: true,
    fix: "the client_id issued at onboarding",
  },
  clientSecret: {
    env: "REFPAY_CLIENT_SECRET",
    schema: text.min(1),
    secret: true,
    fix: "the client_secret issued at onboarding",
  },
  channel: {
    env: "REFPAY_CHANNEL",
    schema: text.optional(),
    secret: true,
  },
  scope: {
    env: "REFPAY_SCOPE",
    schema: text.optional(),
    secret: true,
  },
  requesterBranch: {
    env: "REFPAY_REQUESTER_BRANCH",
    schema: z.string().default(DEFAULT_REQUESTER.branch),
  },
  requesterLogin: {
    env: "REFPAY_REQUESTER_LOGIN",
    schema: z.string().default(DEFAULT_REQUESTER.login),
  },
  requesterName: {
    env: "REFPAY_REQUESTER_NAME",
    schema: z.string().default(DEFAULT_REQUESTER.name),
  },
  requesterEnrollmentNumber: {
    env: "REFPAY_REQUESTER_ENROLLMENT_NUMBER",
    schema: z.string().default(DEFAULT_REQUESTER.enrollmentNumber),
  },
  t2AuthorizationForm: {
    env: "REFPAY_T2_AUTHORIZATION_FORM",
    ...choice(["bearer", "bare"], DEFAULT_T2_AUTHORIZATION_FORM),
  },
  webhookSecret: {
    env: "REFPAY_WEBHOOK_SECRET",
    schema: z.string().min(16).optional(),
    secret: true,
    fix: "a random string of at least 16 characters, the same one the platform sends",
  },
  expiryDays: {
    env: "REFPAY_EXPIRY_DAYS",
    schema: int(1).default(7),
  },
  expiryGraceHours: {
    env: "REFPAY_EXPIRY_GRACE_HOURS",
    schema: int(0).default(24),
  },
  cancelPath: {
    env: "REFPAY_CANCEL_PATH",
    schema: text.startsWith("/").optional(),
    clientDefault: DEFAULT_PATHS.cancelPayment,
  },
  paymentInfoPath: {
    env: "REFPAY_PAYMENT_INFO_PATH",
    schema: text.startsWith("/").includes("{payment_id}").optional(),
    clientDefault: DEFAULT_PATHS.paymentInfo,
  },
  connectTimeoutMs: {
    env: "REFPAY_CONNECT_TIMEOUT_MS",
    schema: int(1).default(DEFAULT_TIMEOUTS.connectMs),
  },
  requestTimeoutMs: {
    env: "REFPAY_REQUEST_TIMEOUT_MS",
    schema: int(1).default(DEFAULT_TIMEOUTS.headersMs),
  },
  bodyTimeoutMs: {
    env: "REFPAY_BODY_TIMEOUT_MS",
    schema: int(1).default(DEFAULT_TIMEOUTS.bodyMs),
  },
  maxRetries: {
    env: "REFPAY_MAX_RETRIES",
    schema: int(0).max(10).default(DEFAULT_RETRIES.maxRetries),
  },
  sandboxHosts: {
    env: "REFPAY_SANDBOX_HOSTS",
    schema: hostList.default([]),
  },
  minAmount: {
    env: "REFPAY_MIN_AMOUNT",
    ...amount("1.00"),
  },
  maxAmount: {
    env: "REFPAY_MAX_AMOUNT",
    ...amount("99999.99"),
  },
  cancelExpiredOrders: {
    env: "REFPAY_CANCEL_EXPIRED_ORDERS",
    ...flag(true),
  },
  expiryPolicy: {
    env: "REFPAY_EXPIRY_POLICY",
    ...choice(["renew", "cancel"], "renew"),
  },
  maxRenewals: {
    env: "REFPAY_MAX_RENEWALS",
    schema: int(0).max(10).default(1),
  },
  storePaymentRequests: {
    env: "REFPAY_STORE_PAYMENT_REQUESTS",
    ...choice(STORE_PAYMENT_REQUESTS, "refpay_orders"),
  },
  reminderHoursBeforeExpiry: {
    env: "REFPAY_REMINDER_HOURS",
    schema: int(0)
      .max(24 * 30)
      .default(24),
  },
  autoRefundLatePayments: {
    env: "REFPAY_AUTO_REFUND_LATE_PAYMENTS",
    ...flag(false),
  },
  lateSettlementDays: {
    env: "REFPAY_LATE_SETTLEMENT_DAYS",
    schema: int(0).max(60).default(3),
  },
  webhookAnswerWithinMs: {
    env: "REFPAY_WEBHOOK_ANSWER_WITHIN_MS",
    schema: int(100).max(60_000).default(2_000),
    fix: "a whole number of milliseconds from 100 to 60000",
  },
  webhookSyncsAtOnce: {
    env: "REFPAY_WEBHOOK_SYNCS_AT_ONCE",
    schema: int(1).max(256).default(32),
    fix: "a whole number from 1 to 256",
  },
  pollEverySeconds: {
    env: "REFPAY_POLL_EVERY_SECONDS",
    schema: int(1).max(60).default(60),
    fix: "a whole number of seconds from 1 to 60 (60, the default: every minute)",
  },
  pollSpread: {
    env: "REFPAY_POLL_SPREAD",
    ...choice(["auto", "on", "off"], "auto"),
  },
  pollBatchSize: {
    env: "REFPAY_POLL_BATCH_SIZE",
    schema: int(1).max(1000).default(100),
  },
  pollIntervalMinutes: {
    env: "REFPAY_POLL_INTERVAL_MINUTES",
    schema: int(0).default(10),
  },
} as const satisfies Record<string, OptionField>

type Fields = typeof OPTION_FIELDS
export type RefpayOptionName = keyof Fields

/** Provider options as medusa-config gives them; each is described in docs/settings/<option>.md. */
export type RefpayProviderOptions = { [K in RefpayOptionName]?: z.output<Fields[K]["schema"]> }

/** The options with an environment variable (all but `account`). */
export type RefpayEnvOption = {
  [K in RefpayOptionName]: Fields[K] extends { env: string } ? K : never
}[RefpayOptionName]

/** The options that are credentials (`secret: true`). */
export type RefpaySecretOption = {
  [K in RefpayOptionName]: Fields[K] extends { secret: true } ? K : never
}[RefpayOptionName]

/** Every option with its field, in the table's order. */
export const OPTION_LIST = Object.entries(OPTION_FIELDS) as [RefpayOptionName, OptionField][]

export const SECRET_OPTIONS = OPTION_LIST.filter(([, field]) => field.secret).map(
  ([key]) => key
) as RefpaySecretOption[]

/** Every option's schema as one object: what `resolveOptions` parses. */
export const OPTIONS_SCHEMA = z.object(
  Object.fromEntries(OPTION_LIST.map(([key, field]) => [key, field.schema])) as {
    [K in RefpayOptionName]: Fields[K]["schema"]
  }
)

type UrlOption = keyof typeof SANDBOX_DEFAULT_URLS
type AmountOption = "minAmount" | "maxAmount"

/**
 * The settings an account runs with: the options, the sandbox's URLs filled in, and the amount limits in cents
 * (`minAmountCents`, `maxAmountCents`) instead of the euros they were written in.
 */
export type ResolvedRefpayOptions = Omit<z.output<typeof OPTIONS_SCHEMA>, UrlOption | AmountOption> &
  Record<UrlOption, string> &
  Record<`${AmountOption}Cents`, number>

/**
 * The configured credentials (every option marked secret), for the client's redactor (`createRedactor`) to hide in
 * free text that reaches the admin (a platform's error detail, a recorded check error). Responses are built from
 * whitelists; this is the second fence for text we did not write.
 */
export function configuredSecrets(settings: Readonly<ResolvedRefpayOptions>): (string | undefined)[] {
  return SECRET_OPTIONS.map((key) => settings[key])
}

import { z } from "@medusajs/framework/zod"
import {
  DEFAULT_PATHS,
  DEFAULT_REQUESTER,
  DEFAULT_RETRIES,
  DEFAULT_T2_AUTHORIZATION_FORM,
  DEFAULT_TIMEOUTS,
} from "../../lib/refpay"
import { toCents } from "../../rules/money"
import { STORE_PAYMENT_REQUESTS } from "../../rules/outstanding"

/**
 * One provider option, said once. A shop sets it in `medusa-config.ts` or, when left out there, through its
 * environment variable, so the usual configuration is environment-only:
 * `{ resolve: "medusa-payment-refpay/providers/refpay", id: "refpay", options: {} }`.
 * The zod schema, the environment reading, the error messages, the admin's settings view and docs/configuration.md's settings
 * table (`node scripts/settings-table.js --write`) are all made from `OPTION_FIELDS`.
 */
export interface OptionField {
  /**
   * The variable read when medusa-config leaves the option out. A registration with an `account` reads
   * `REFPAY_<ACCOUNT>_<NAME>` first (`REFPAY_PORTO_CLIENT_ID`), then this one. None: medusa-config only.
   */
  env?: `REFPAY_${string}`
  /** Checks and converts the value (environment strings included); its `.default()` is the option's default. */
  schema: z.ZodType
  /** What the option is, for a shop owner (Markdown): the settings table in docs/configuration.md shows it. */
  doc: string
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

const text = z.string().trim()
const int = (min: number) => z.coerce.number().int().min(min)
const hostList = z.preprocess(
  (value) =>
    typeof value === "string"
      ? value
          .split(",")
          .map((h) => h.trim())
          .filter(Boolean)
      : value,
  z.array(z.string())
)
const yesNo = z.preprocess((value) => {
  if (typeof value !== "string") return value
  const normalized = value.trim().toLowerCase()
  if (["true", "1", "yes"].includes(normalized)) return true
  if (["false", "0", "no"].includes(normalized)) return false
  return value
}, z.boolean())

/**
 * Euros as a shop owner writes them ("0.50", "99999.99"; a number in medusa-config): a dot, at most two decimals,
 * above zero. Kept as the text it was written as (no float on the way); `resolveOptions` makes it cents with `toCents`.
 * Nine digits before the dot at most, far above any network's limit, so the cents always fit a safe integer.
 */
const euros = z.preprocess(
  (value) => (typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : value),
  z
    .string()
    .regex(/^\d{1,9}(\.\d{1,2})?$/)
    .refine((value) => /[1-9]/.test(value))
)

/** An amount option in euros; its fix says how to write one. */
function amount(fallback: string) {
  return {
    schema: euros.default(fallback),
    fix: 'an amount in euros above zero, with a dot and at most two decimals (e.g. "0.50")',
  }
}

/** An option that takes one of a few words; its fix lists them. */
function choice<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return { schema: z.enum(values).default(fallback), fix: values.map((value) => `"${value}"`).join(" or ") }
}

/** A yes/no option: true/false, 1/0 or yes/no in the environment. */
function flag(fallback: boolean) {
  return { schema: yesNo.default(fallback), fix: '"true" or "false"' }
}

const SANDBOX_CREDENTIALS = "in the sandbox environment, the sandbox's [test credentials](#the-refpay-sandbox)"

/** Every provider option, in the order docs/configuration.md lists them. */
export const OPTION_FIELDS = {
  account: {
    schema: z
      .string()
      .regex(/^[a-z0-9_]+$/i)
      .optional(),
    fix: 'letters, digits or _ (e.g. "porto" for REFPAY_PORTO_* variables)',
    doc:
      "The seller account of this registration, when REFPAY is registered more than once (see " +
      "[Several REFPAY accounts](#several-refpay-accounts)): every setting below is then read from " +
      "`REFPAY_<ACCOUNT>_<NAME>` first (`REFPAY_PORTO_CLIENT_ID`), then from `REFPAY_<NAME>`.",
  },
  environment: {
    env: "REFPAY_ENVIRONMENT",
    ...choice(["sandbox", "production"], "sandbox"),
    doc:
      "`sandbox` or `production`; credentials of one do not work in the other. Production refuses loopback, " +
      "sandbox-named and non-HTTPS URLs; the sandbox environment refuses hosts that are not loopback, not test-named " +
      "(`sandbox`, `homolog`, `hml`, `uat`, `staging`) and not listed in `REFPAY_SANDBOX_HOSTS`.",
  },
  tokenInterface: {
    env: "REFPAY_TOKEN_INTERFACE",
    ...choice(["t1", "t2"], "t1"),
    doc: "`t1` (OAuth client credentials) or `t2` (back-office token; needs channel and scope), as issued at onboarding.",
  },
  authUrl: {
    env: "REFPAY_AUTH_URL",
    schema: z.url().optional(),
    sandboxDefault: SANDBOX_DEFAULT_URLS.authUrl,
    doc: "T1 token service base URL, with its path prefix (`/token` is appended). Required in production with T1.",
  },
  backofficeUrl: {
    env: "REFPAY_BACKOFFICE_URL",
    schema: z.url().optional(),
    sandboxDefault: SANDBOX_DEFAULT_URLS.backofficeUrl,
    doc: "T2 back-office base URL (`/v1/token` is appended). Required in production with T2.",
  },
  paymentsUrl: {
    env: "REFPAY_PAYMENTS_URL",
    schema: z.url().optional(),
    sandboxDefault: SANDBOX_DEFAULT_URLS.paymentsUrl,
    doc: "Payments host. Required in production.",
  },
  clientId: {
    env: "REFPAY_CLIENT_ID",
    schema: text.min(1),
    secret: true,
    fix: "the client_id issued at onboarding",
    doc: `Issued at onboarding; ${SANDBOX_CREDENTIALS}.`,
  },
  clientSecret: {
    env: "REFPAY_CLIENT_SECRET",
    schema: text.min(1),
    secret: true,
    fix: "the client_secret issued at onboarding",
    doc: `Issued at onboarding; ${SANDBOX_CREDENTIALS}.`,
  },
  channel: {
    env: "REFPAY_CHANNEL",
    schema: text.optional(),
    secret: true,
    doc: `T2 only (required there), issued at onboarding; ${SANDBOX_CREDENTIALS}.`,
  },
  scope: {
    env: "REFPAY_SCOPE",
    schema: text.optional(),
    secret: true,
    doc: `T2 \`scope\` header (required there); T1 sends it as the OAuth scope when set; ${SANDBOX_CREDENTIALS}.`,
  },
  requesterBranch: {
    env: "REFPAY_REQUESTER_BRANCH",
    schema: z.string().default(DEFAULT_REQUESTER.branch),
    doc: "T2 requester identity, for the platform's audit trail: the branch.",
  },
  requesterLogin: {
    env: "REFPAY_REQUESTER_LOGIN",
    schema: z.string().default(DEFAULT_REQUESTER.login),
    doc: "T2 requester identity: the login.",
  },
  requesterName: {
    env: "REFPAY_REQUESTER_NAME",
    schema: z.string().default(DEFAULT_REQUESTER.name),
    doc: "T2 requester identity: the name.",
  },
  requesterEnrollmentNumber: {
    env: "REFPAY_REQUESTER_ENROLLMENT_NUMBER",
    schema: z.string().default(DEFAULT_REQUESTER.enrollmentNumber),
    doc: "T2 requester identity: the enrollment number.",
  },
  t2AuthorizationForm: {
    env: "REFPAY_T2_AUTHORIZATION_FORM",
    ...choice(["bearer", "bare"], DEFAULT_T2_AUTHORIZATION_FORM),
    doc: "How T2 tokens are sent: `bearer` (`Bearer <token>`) or `bare` (the token alone); the spec shows both.",
  },
  webhookSecret: {
    env: "REFPAY_WEBHOOK_SECRET",
    schema: z.string().min(16).optional(),
    secret: true,
    fix: "a random string of at least 16 characters, the same one the platform sends",
    doc:
      "Shared secret the platform sends with webhooks (in a header or as the HTTP Basic password), at least 16 " +
      "characters. Required in production.",
  },
  expiryDays: {
    env: "REFPAY_EXPIRY_DAYS",
    schema: int(1).default(7),
    doc: "Days a reference stays payable (D+7).",
  },
  expiryGraceHours: {
    env: "REFPAY_EXPIRY_GRACE_HOURS",
    schema: int(0).default(24),
    doc: "Hours after expiry before an unpaid reference is cancelled, so a late bank settlement can still arrive.",
  },
  cancelPath: {
    env: "REFPAY_CANCEL_PATH",
    schema: text.startsWith("/").optional(),
    clientDefault: DEFAULT_PATHS.cancelPayment,
    doc:
      "Path of the cancel/refund call on the payments host (not in the spec; see " +
      "[Choices where the platform spec is silent](#choices-where-the-platform-spec-is-silent)).",
  },
  paymentInfoPath: {
    env: "REFPAY_PAYMENT_INFO_PATH",
    schema: text.startsWith("/").includes("{payment_id}").optional(),
    clientDefault: DEFAULT_PATHS.paymentInfo,
    doc: "Path of the status read on the payments host; must contain `{payment_id}`.",
  },
  connectTimeoutMs: {
    env: "REFPAY_CONNECT_TIMEOUT_MS",
    schema: int(1).default(DEFAULT_TIMEOUTS.connectMs),
    doc: "Milliseconds to open a connection to the platform.",
  },
  requestTimeoutMs: {
    env: "REFPAY_REQUEST_TIMEOUT_MS",
    schema: int(1).default(DEFAULT_TIMEOUTS.headersMs),
    doc: "Milliseconds to the response headers.",
  },
  bodyTimeoutMs: {
    env: "REFPAY_BODY_TIMEOUT_MS",
    schema: int(1).default(DEFAULT_TIMEOUTS.bodyMs),
    doc: "Longest silence inside a response body, in milliseconds.",
  },
  maxRetries: {
    env: "REFPAY_MAX_RETRIES",
    schema: int(0).max(10).default(DEFAULT_RETRIES.maxRetries),
    doc:
      "Retries on connection errors and 5xx (never on 4xx), with exponential backoff and jitter and the same " +
      "idempotency key.",
  },
  sandboxHosts: {
    env: "REFPAY_SANDBOX_HOSTS",
    schema: hostList.default([]),
    doc: "Comma-separated extra hosts accepted in the sandbox environment, besides loopback and test-named hosts.",
  },
  minAmount: {
    env: "REFPAY_MIN_AMOUNT",
    ...amount("1.00"),
    doc:
      "The smallest order total, in euros, REFPAY is offered for: a cart below it is refused at the payment step and " +
      "at checkout, before any order or reference exists. The platform spec states no limit, and Multibanco-style " +
      "networks differ (0.01 EUR at ifthenpay, 0.50 at easypay and Shopify, 1.00 at HiPay): 1.00, the highest of " +
      "them, is one every one of these networks accepts, so that a reference is not refused by the network once its " +
      "order exists. Lower it only to what your contract with REFPAY allows.",
  },
  maxAmount: {
    env: "REFPAY_MAX_AMOUNT",
    ...amount("99999.99"),
    doc:
      "The largest order total, in euros, REFPAY is offered for (refused like a total below `REFPAY_MIN_AMOUNT`). " +
      "99,999.99 EUR is ifthenpay's published maximum for Multibanco references; set your contract's limit if it is " +
      "lower. At least `REFPAY_MIN_AMOUNT`.",
  },
  cancelExpiredOrders: {
    env: "REFPAY_CANCEL_EXPIRED_ORDERS",
    ...flag(true),
    doc: "Cancel the order when its reference expires unpaid (and is not renewed); `false` cancels only the reference.",
  },
  expiryPolicy: {
    env: "REFPAY_EXPIRY_POLICY",
    ...choice(["renew", "cancel"], "renew"),
    doc:
      "When a reference expires unpaid: `renew` issues a new reference for the same amount on the same order and " +
      'e-mails it (spec 3 rule 2: "the merchant asks the customer for a new payment"), up to `REFPAY_MAX_RENEWALS` ' +
      "times, then cancels; `cancel` cancels the reference (and the order, per `REFPAY_CANCEL_EXPIRED_ORDERS`) and " +
      "tells the customer.",
  },
  maxRenewals: {
    env: "REFPAY_MAX_RENEWALS",
    schema: int(0).max(10).default(1),
    doc: "New references one order may get after expiries.",
  },
  storePaymentRequests: {
    env: "REFPAY_STORE_PAYMENT_REQUESTS",
    ...choice(STORE_PAYMENT_REQUESTS, "refpay_orders"),
    doc:
      "Which amounts still due on a placed order a customer may ask a REFPAY reference for from the store " +
      "(`POST /store/refpay/orders/:id/payment-requests`): `refpay_orders` (the default) those of orders that " +
      "already have a REFPAY reference (placed with REFPAY, or one the shop requested), `any` those of every order " +
      "on a region with REFPAY, `none` none (only the admin's **Request payment by REFPAY** issues them). Whatever " +
      "this says, a reference that expired is issued again to the store only as `REFPAY_EXPIRY_POLICY` and " +
      "`REFPAY_MAX_RENEWALS` would renew it; otherwise the admin decides. A difference the shop collects another " +
      "way then never gets a reference the fulfilment guard would wait on.",
  },
  reminderHoursBeforeExpiry: {
    env: "REFPAY_REMINDER_HOURS",
    schema: int(0)
      .max(24 * 30)
      .default(24),
    doc: "Hours before expiry when the customer is reminded to pay (`0`: no reminder).",
  },
  autoRefundLatePayments: {
    env: "REFPAY_AUTO_REFUND_LATE_PAYMENTS",
    ...flag(false),
    doc:
      "Refund automatically a payment that arrives after its order was cancelled; by default it is recorded and " +
      "flagged for you.",
  },
  lateSettlementDays: {
    env: "REFPAY_LATE_SETTLEMENT_DAYS",
    schema: int(0).max(60).default(3),
    doc:
      "Days after a reference's validity during which the poll job still checks a cancelled or expired reference " +
      "for a late bank settlement.",
  },
  webhookAnswerWithinMs: {
    env: "REFPAY_WEBHOOK_ANSWER_WITHIN_MS",
    schema: int(100).max(60_000).default(2_000),
    fix: "a whole number of milliseconds from 100 to 60000",
    doc:
      "The longest the plugin's webhook route (`/hooks/refpay`) makes the platform wait for its answer. A delivery " +
      "is recorded first; when its sync finishes within this time the answer says it was processed (or 503 when it " +
      "failed, so the platform sends it again); otherwise it is answered 200 and the sync goes on, and an event " +
      "whose processing fails after that answer is processed again by the poll job's next run. A delivery whose " +
      "sync waits behind others (a burst, see `REFPAY_WEBHOOK_SYNCS_AT_ONCE`) is answered at once. Keep it well " +
      "below the platform's own timeout (not documented; the sandbox waits 10 s).",
  },
  webhookSyncsAtOnce: {
    env: "REFPAY_WEBHOOK_SYNCS_AT_ONCE",
    schema: int(1).max(256).default(32),
    fix: "a whole number from 1 to 256",
    doc:
      "How many syncs started by webhooks one Medusa process runs at once; the others wait their turn, and their " +
      "deliveries are answered at once (measured in docs/benchmarks.md: fewer makes a burst slower, unbounded left " +
      "no time to answer a burst of 500). A larger database pool can take more. One setting for the whole shop, read " +
      "from this variable only: not from medusa-config nor a `REFPAY_<ACCOUNT>_` variable (boot fails if those " +
      "disagree with it).",
  },
  pollEverySeconds: {
    env: "REFPAY_POLL_EVERY_SECONDS",
    schema: int(1).max(60).default(60),
    fix: "a whole number of seconds from 1 to 60 (60, the default: every minute)",
    doc:
      "How often the poll job runs, in seconds: `60` (the default) runs it on every minute (cron `* * * * *`); " +
      "fewer runs it every so many seconds, for tests and demos. Not how often a payment is checked: that is " +
      "`REFPAY_POLL_INTERVAL_MINUTES`. One setting for the whole shop, read from this variable only, when Medusa " +
      "loads its jobs: not from medusa-config nor a `REFPAY_<ACCOUNT>_` variable (boot fails if those disagree with it).",
  },
  pollSpread: {
    env: "REFPAY_POLL_SPREAD",
    ...choice(["auto", "on", "off"], "auto"),
    doc:
      "Where a poll tick's checks run. `auto` (the default): on every Medusa process that runs background work " +
      "(`shared` and `worker`) when the shop runs Medusa's Redis event bus, so two workers check about twice as many " +
      "payments a minute as one; otherwise in the process that runs the tick. The tick takes its due payments a page " +
      "at a time, marks them taken (a page whose process dies is due again after a few minutes) and hands each page " +
      "to the event bus: each payment is still read once per tick. `on` spreads over any event bus, `off` never " +
      "spreads. One setting for the whole shop, read from this variable only: not from medusa-config nor a " +
      "`REFPAY_<ACCOUNT>_` variable (boot fails if those disagree with it).",
  },
  pollBatchSize: {
    env: "REFPAY_POLL_BATCH_SIZE",
    schema: int(1).max(1000).default(100),
    doc:
      "The least number of due payments the poll job checks per run (every `REFPAY_POLL_EVERY_SECONDS`, a minute by " +
      "default); it checks more when the backlog needs it.",
  },
  pollIntervalMinutes: {
    env: "REFPAY_POLL_INTERVAL_MINUTES",
    schema: int(0).default(10),
    doc:
      "Minimum minutes between two status checks of the same waiting payment (the poll job runs more often, every " +
      "`REFPAY_POLL_EVERY_SECONDS`, and checks the payments that are due).",
  },
} as const satisfies Record<string, OptionField>

type Fields = typeof OPTION_FIELDS
export type RefpayOptionName = keyof Fields

/** Provider options as medusa-config gives them; each is documented in `OPTION_FIELDS`. */
export type RefpayProviderOptions = { [K in RefpayOptionName]?: z.output<Fields[K]["schema"]> }

/** The options with an environment variable (all but `account`). */
export type RefpayEnvOption = {
  [K in RefpayOptionName]: Fields[K] extends { env: string } ? K : never
}[RefpayOptionName]

/** The options that are credentials (`secret: true`). */
export type RefpaySecretOption = {
  [K in RefpayOptionName]: Fields[K] extends { secret: true } ? K : never
}[RefpayOptionName]

const fieldList = Object.entries(OPTION_FIELDS) as [RefpayOptionName, OptionField][]

export const SECRET_OPTIONS = fieldList.filter(([, field]) => field.secret).map(([key]) => key) as RefpaySecretOption[]

const schema = z.object(
  Object.fromEntries(fieldList.map(([key, field]) => [key, field.schema])) as {
    [K in RefpayOptionName]: Fields[K]["schema"]
  }
)

type UrlOption = keyof typeof SANDBOX_DEFAULT_URLS
type AmountOption = "minAmount" | "maxAmount"

/**
 * The settings a registration runs with: the options, the sandbox's URLs filled in, and the amount limits in cents
 * (`minAmountCents`, `maxAmountCents`) instead of the euros they were written in.
 */
export type ResolvedRefpayOptions = Omit<z.output<typeof schema>, UrlOption | AmountOption> &
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

/** The variable an account's registration reads first: REFPAY_PORTO_CLIENT_ID for REFPAY_CLIENT_ID and "porto". */
function accountVariable(variable: string, account: string): string {
  return variable.replace(/^REFPAY_/, `REFPAY_${account.toUpperCase()}_`)
}

/**
 * The environment variable behind each option for a registration: `REFPAY_<ACCOUNT>_<NAME>` with an account (the
 * unprefixed `REFPAY_<NAME>` is read when that one is unset), `REFPAY_<NAME>` without. Options read from
 * medusa-config only (`account`) have none.
 */
export function optionVariables(account?: string | null): Record<RefpayEnvOption, string> {
  return Object.fromEntries(
    fieldList.flatMap(([key, field]) =>
      field.env ? [[key, account ? accountVariable(field.env, account) : field.env]] : []
    )
  ) as Record<RefpayEnvOption, string>
}

/** "set REFPAY_X to ..." for an option whose field says how to fix it. */
function howToFix(key: RefpayOptionName): string | undefined {
  const field: OptionField = OPTION_FIELDS[key]
  if (!field.fix) return undefined
  return field.env ? `set ${field.env} to ${field.fix}` : `set the provider option "${key}" to ${field.fix}`
}

/** Options from medusa-config, each missing one taken from its environment variable. Empty strings count as unset. */
function withEnvironment(options: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const account = typeof options.account === "string" && options.account ? options.account : null
  const merged: Record<string, unknown> = {}
  for (const [key, field] of fieldList) {
    const own = account && field.env ? env[accountVariable(field.env, account)] : undefined
    const fromEnv = field.env ? (own !== undefined && own !== "" ? own : env[field.env]) : undefined
    const value = options[key] ?? fromEnv
    if (value !== undefined && value !== "") merged[key] = value
  }
  return merged
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "")
  return host === "localhost" || host === "::1" || /^127\./.test(host) || host.endsWith(".localhost")
}

/** A host the sandbox environment may use: loopback, an explicitly listed host, or one named as a test host. */
function isSandboxHost(hostname: string, listed: string[]): boolean {
  return (
    isLoopback(hostname) ||
    listed.includes(hostname) ||
    /(^|[.-])(sandbox|homolog|hml|uat|staging)([.-]|$)/i.test(hostname)
  )
}

const { environment: ENVIRONMENT, sandboxHosts: SANDBOX_HOSTS } = optionVariables()

function checkEnvironmentUrls(resolved: ResolvedRefpayOptions, problems: string[]): void {
  for (const key of ["authUrl", "backofficeUrl", "paymentsUrl"] as const) {
    if (resolved.tokenInterface === "t1" && key === "backofficeUrl") continue
    if (resolved.tokenInterface === "t2" && key === "authUrl") continue
    const url = new URL(resolved[key])
    const sandboxHost = isSandboxHost(url.hostname, resolved.sandboxHosts)
    if (resolved.environment === "production" && (sandboxHost || url.protocol !== "https:")) {
      problems.push(
        `${key} (${OPTION_FIELDS[key].env}) is ${url.origin}, a sandbox or non-HTTPS address, but ${ENVIRONMENT} is production: ` +
          `use the production https URL issued at onboarding`
      )
    }
    if (resolved.environment === "sandbox" && !sandboxHost) {
      problems.push(
        `${key} (${OPTION_FIELDS[key].env}) is ${url.origin}, which is not a sandbox host, but ${ENVIRONMENT} is sandbox: ` +
          `set ${ENVIRONMENT}=production with production credentials, or list the host in ${SANDBOX_HOSTS}`
      )
    }
  }
}

function checkRules(resolved: ResolvedRefpayOptions, problems: string[]): void {
  if (resolved.tokenInterface === "t2" && (!resolved.channel || !resolved.scope)) {
    problems.push(
      `T2 needs channel and scope: set ${OPTION_FIELDS.channel.env} and ${OPTION_FIELDS.scope.env} to the values issued at onboarding`
    )
  }
  if (resolved.environment === "production" && !resolved.webhookSecret) {
    problems.push(
      `webhookSecret (${OPTION_FIELDS.webhookSecret.env}) is required in production: ${howToFix("webhookSecret")}`
    )
  }
  for (const key of ["authUrl", "backofficeUrl", "paymentsUrl"] as const) {
    const needed = key === "paymentsUrl" || (key === "authUrl") === (resolved.tokenInterface === "t1")
    if (needed && !resolved[key]) {
      problems.push(`${key} is required in production: set ${OPTION_FIELDS[key].env} to the URL issued at onboarding`)
    }
  }
  if (problems.length === 0) checkEnvironmentUrls(resolved, problems)
}

/** The limits' euros as they were written, for the message, and in cents, for the comparison. */
function checkAmountLimits(
  written: { minAmount: string; maxAmount: string },
  resolved: ResolvedRefpayOptions,
  problems: string[]
): void {
  if (resolved.minAmountCents <= resolved.maxAmountCents) return
  const { minAmount, maxAmount } = OPTION_FIELDS
  problems.push(
    `minAmount (${minAmount.env}) is ${written.minAmount} EUR, above maxAmount (${maxAmount.env}), ` +
      `${written.maxAmount} EUR: set ${minAmount.env} at or below ${maxAmount.env}`
  )
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const key = String(issue.path[0])
  if (!(key in OPTION_FIELDS)) return `${key}: ${issue.message}`
  const field: OptionField = OPTION_FIELDS[key as RefpayOptionName]
  const variable = field.env ? ` (${field.env})` : ""
  // zod's message never repeats the value for these checks, so no secret can leak through it.
  return `${key}${variable}: ${howToFix(key as RefpayOptionName) ?? issue.message}`
}

export class RefpayOptionsError extends Error {
  override name = "RefpayOptionsError"
}

/** The poll job's schedule at the default `pollEverySeconds` (60): on every minute, as it always ran. */
export const POLL_EVERY_MINUTE = "* * * * *"

/**
 * Settings of the whole shop rather than of one registration: read before any provider exists (the poll job's
 * schedule when Medusa loads its jobs, the webhook syncs' queue), so from their variable only.
 */
const SHOP_WIDE_SETTINGS = ["pollEverySeconds", "webhookSyncsAtOnce", "pollSpread"] as const
type ShopWideSetting = (typeof SHOP_WIDE_SETTINGS)[number]
type ShopWideValue<K extends ShopWideSetting> = z.infer<(typeof OPTION_FIELDS)[K]["schema"]>

/** A shop-wide setting from its variable (the only place it is read from). */
export function shopWideSetting<K extends ShopWideSetting>(
  key: K,
  env: NodeJS.ProcessEnv = process.env
): ShopWideValue<K> {
  const field = OPTION_FIELDS[key]
  const raw = env[field.env]
  const parsed = field.schema.safeParse(raw === "" ? undefined : raw)
  if (!parsed.success) {
    throw new RefpayOptionsError(`REFPAY provider options are invalid: ${key} (${field.env}): ${howToFix(key)}`)
  }
  return parsed.data as ShopWideValue<K>
}

/**
 * The poll job's `schedule` (src/jobs/refpay-poll-payments.ts), read when Medusa loads the job module, before any
 * provider exists: so from the environment only (REFPAY_POLL_EVERY_SECONDS), one for the whole shop. The default, 60,
 * is the cron `* * * * *` (on every minute); fewer seconds are Medusa's `{ interval: ms }`.
 */
export function pollJobSchedule(env: NodeJS.ProcessEnv = process.env): string | { interval: number } {
  const seconds = shopWideSetting("pollEverySeconds", env)
  return seconds === 60 ? POLL_EVERY_MINUTE : { interval: seconds * 1000 }
}

/**
 * Reads and checks the options; throws a RefpayOptionsError listing every wrong setting with the variable to set.
 * Messages name settings, never their values (a secret may be the wrong value).
 */
export function resolveOptions(
  options: RefpayProviderOptions = {},
  env: NodeJS.ProcessEnv = process.env
): ResolvedRefpayOptions {
  const parsed = schema.safeParse(withEnvironment(options as Record<string, unknown>, env))
  if (!parsed.success) {
    throw new RefpayOptionsError(
      `REFPAY provider options are invalid: ${parsed.error.issues.map(describeIssue).join("; ")}`
    )
  }
  const { minAmount, maxAmount, ...given } = parsed.data
  const sandbox = given.environment === "sandbox"
  const resolved = {
    ...given,
    authUrl: given.authUrl ?? (sandbox ? OPTION_FIELDS.authUrl.sandboxDefault : ""),
    backofficeUrl: given.backofficeUrl ?? (sandbox ? OPTION_FIELDS.backofficeUrl.sandboxDefault : ""),
    paymentsUrl: given.paymentsUrl ?? (sandbox ? OPTION_FIELDS.paymentsUrl.sandboxDefault : ""),
    minAmountCents: toCents(minAmount),
    maxAmountCents: toCents(maxAmount),
  }
  const problems: string[] = []
  checkRules(resolved, problems)
  checkAmountLimits({ minAmount, maxAmount }, resolved, problems)
  checkShopWideSettings(resolved, env, problems)
  if (problems.length > 0) throw new RefpayOptionsError(`REFPAY provider options are invalid: ${problems.join("; ")}`)
  return resolved
}

/**
 * A shop-wide setting is read from its variable alone (shopWideSetting): a provider option or an account's variable
 * that says otherwise would be silently ignored, so it is refused.
 */
function checkShopWideSettings(
  resolved: { [K in ShopWideSetting]: ShopWideValue<K> },
  env: NodeJS.ProcessEnv,
  problems: string[]
) {
  for (const key of SHOP_WIDE_SETTINGS) {
    const shopWide = shopWideSetting(key, env)
    if (resolved[key] === shopWide) continue
    const { env: variable } = OPTION_FIELDS[key]
    problems.push(
      `${key} is ${resolved[key]} here but the shop runs with ${shopWide}: it is read from ${variable} only (one ` +
        `setting for the whole shop); set ${variable} instead of the provider option or an account's variable`
    )
  }
}

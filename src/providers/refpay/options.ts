import { z } from "@medusajs/framework/zod"

/**
 * Provider options. A shop sets each one in `medusa-config.ts` or, when left out there, through the environment
 * variable named in `ENV`, so the usual configuration is environment-only:
 * `{ resolve: "medusa-payment-refpay/providers/refpay", id: "refpay", options: {} }`.
 */
export interface RefpayProviderOptions {
  /**
   * The seller account this registration is for, when a shop registers REFPAY more than once (e.g. "porto" for
   * `id: "porto"`): each option is then read from `REFPAY_<ACCOUNT>_<NAME>` first (`REFPAY_PORTO_CLIENT_ID`), then
   * from the unprefixed `REFPAY_<NAME>`. Not itself read from the environment.
   */
  account?: string
  /** "sandbox" (default) or "production". Each refuses the other's URLs, and credentials are not interchangeable. */
  environment?: "sandbox" | "production"
  /** "t1" (OAuth client credentials, default) or "t2" (back-office token: needs channel and scope). */
  tokenInterface?: "t1" | "t2"
  /** T1 token service base URL, including its path prefix; `/token` is appended. Sandbox default: the local sandbox. */
  authUrl?: string
  /** T2 back-office base URL; `/v1/token` is appended. Sandbox default: the local sandbox. */
  backofficeUrl?: string
  /** Payments host base URL. Sandbox default: the local sandbox. */
  paymentsUrl?: string
  /** Issued at onboarding. Secret: never logged. */
  clientId?: string
  /** Issued at onboarding. Secret: never logged. */
  clientSecret?: string
  /** T2 only, issued at onboarding. */
  channel?: string
  /** T2 `scope` header (required there); T1 sends it as the OAuth scope when set. */
  scope?: string
  /** T2 requester identity (audit trail on the platform); empty strings are allowed. */
  requesterBranch?: string
  requesterLogin?: string
  requesterName?: string
  requesterEnrollmentNumber?: string
  /** How T2 tokens go in the Authorization header: "bearer" (default) or "bare" (spec 5.4 shows both). */
  t2AuthorizationForm?: "bearer" | "bare"
  /** Shared secret the platform sends with webhooks (header or HTTP Basic password). Required in production. */
  webhookSecret?: string
  /** Days a reference stays payable (default 7: D+7). */
  expiryDays?: number
  /** Hours after expiry before an unpaid reference is cancelled, to let late bank settlements arrive (default 24). */
  expiryGraceHours?: number
  /** Path of the cancel/refund call under paymentsUrl (the spec does not show it). */
  cancelPath?: string
  /** Path of the status read under paymentsUrl; must contain {payment_id}. */
  paymentInfoPath?: string
  /** Connect timeout in ms (default 5000). */
  connectTimeoutMs?: number
  /** Time to the response headers in ms (default 10000). */
  requestTimeoutMs?: number
  /** Longest silence inside a response body in ms (default 10000). */
  bodyTimeoutMs?: number
  /** Retries on connection errors and 5xx, never on 4xx (default 2). */
  maxRetries?: number
  /** Extra host names accepted as sandbox hosts besides loopback (comma-separated in the environment). */
  sandboxHosts?: string[]
  /** Cancel the order when its reference expires unpaid (default true); otherwise only the reference is cancelled. */
  cancelExpiredOrders?: boolean
  /**
   * What happens when a reference expires unpaid (spec 3 rule 2: "the merchant asks the customer for a new payment"):
   * `renew` (default) issues a new reference for the same amount on the same order and e-mails it, up to
   * `maxRenewals` times, then cancels; `cancel` cancels the reference (and the order, per `cancelExpiredOrders`) and
   * tells the customer.
   */
  expiryPolicy?: "renew" | "cancel"
  /** How many new references one order may get after expiries (default 1). */
  maxRenewals?: number
  /** Hours before a reference's expiry when the customer is reminded to pay (default 24; 0 = no reminder). */
  reminderHoursBeforeExpiry?: number
  /** Refund automatically a payment that arrives after its order was cancelled (default false: flag it for the shop owner). */
  autoRefundLatePayments?: boolean
  /**
   * Days after a reference's validity during which the poll job still checks a cancelled or expired reference for a
   * late bank settlement (default 3).
   */
  lateSettlementDays?: number
  /** The least number of payments the poll job checks per run; it checks more when the backlog needs it (default 100). */
  pollBatchSize?: number
  /** Minimum minutes between two status checks of the same waiting payment by the poll job (default 10). */
  pollIntervalMinutes?: number
}

/** The environment variable behind each option. */
export const ENV = {
  environment: "REFPAY_ENVIRONMENT",
  tokenInterface: "REFPAY_TOKEN_INTERFACE",
  authUrl: "REFPAY_AUTH_URL",
  backofficeUrl: "REFPAY_BACKOFFICE_URL",
  paymentsUrl: "REFPAY_PAYMENTS_URL",
  clientId: "REFPAY_CLIENT_ID",
  clientSecret: "REFPAY_CLIENT_SECRET",
  channel: "REFPAY_CHANNEL",
  scope: "REFPAY_SCOPE",
  requesterBranch: "REFPAY_REQUESTER_BRANCH",
  requesterLogin: "REFPAY_REQUESTER_LOGIN",
  requesterName: "REFPAY_REQUESTER_NAME",
  requesterEnrollmentNumber: "REFPAY_REQUESTER_ENROLLMENT_NUMBER",
  t2AuthorizationForm: "REFPAY_T2_AUTHORIZATION_FORM",
  webhookSecret: "REFPAY_WEBHOOK_SECRET",
  expiryDays: "REFPAY_EXPIRY_DAYS",
  expiryGraceHours: "REFPAY_EXPIRY_GRACE_HOURS",
  cancelPath: "REFPAY_CANCEL_PATH",
  paymentInfoPath: "REFPAY_PAYMENT_INFO_PATH",
  connectTimeoutMs: "REFPAY_CONNECT_TIMEOUT_MS",
  requestTimeoutMs: "REFPAY_REQUEST_TIMEOUT_MS",
  bodyTimeoutMs: "REFPAY_BODY_TIMEOUT_MS",
  maxRetries: "REFPAY_MAX_RETRIES",
  sandboxHosts: "REFPAY_SANDBOX_HOSTS",
  cancelExpiredOrders: "REFPAY_CANCEL_EXPIRED_ORDERS",
  expiryPolicy: "REFPAY_EXPIRY_POLICY",
  maxRenewals: "REFPAY_MAX_RENEWALS",
  reminderHoursBeforeExpiry: "REFPAY_REMINDER_HOURS",
  autoRefundLatePayments: "REFPAY_AUTO_REFUND_LATE_PAYMENTS",
  lateSettlementDays: "REFPAY_LATE_SETTLEMENT_DAYS",
  pollBatchSize: "REFPAY_POLL_BATCH_SIZE",
  pollIntervalMinutes: "REFPAY_POLL_INTERVAL_MINUTES",
} as const satisfies Record<Exclude<keyof RefpayProviderOptions, "account">, string>

/** The local sandbox (`npm run sandbox`), the default in the sandbox environment. */
export const SANDBOX_DEFAULT_URLS = {
  authUrl: "http://localhost:4010/auth",
  backofficeUrl: "http://localhost:4010/backoffice",
  paymentsUrl: "http://localhost:4010",
} as const

const text = z.string().trim()
const int = (min: number) => z.coerce.number().int().min(min)
const hostList = z.preprocess(
  (value) => (typeof value === "string" ? value.split(",").map((h) => h.trim()).filter(Boolean) : value),
  z.array(z.string())
)

const flag = z.preprocess((value) => {
  if (typeof value !== "string") return value
  const normalized = value.trim().toLowerCase()
  if (["true", "1", "yes"].includes(normalized)) return true
  if (["false", "0", "no"].includes(normalized)) return false
  return value
}, z.boolean())

const schema = z.object({
  account: z.string().regex(/^[a-z0-9_]+$/i).optional(),
  environment: z.enum(["sandbox", "production"]).default("sandbox"),
  tokenInterface: z.enum(["t1", "t2"]).default("t1"),
  authUrl: z.url().optional(),
  backofficeUrl: z.url().optional(),
  paymentsUrl: z.url().optional(),
  clientId: text.min(1),
  clientSecret: text.min(1),
  channel: text.optional(),
  scope: text.optional(),
  requesterBranch: z.string().default(""),
  requesterLogin: z.string().default(""),
  requesterName: z.string().default(""),
  requesterEnrollmentNumber: z.string().default(""),
  t2AuthorizationForm: z.enum(["bearer", "bare"]).default("bearer"),
  webhookSecret: z.string().min(16).optional(),
  expiryDays: int(1).default(7),
  expiryGraceHours: int(0).default(24),
  cancelPath: text.startsWith("/").optional(),
  paymentInfoPath: text.startsWith("/").includes("{payment_id}").optional(),
  connectTimeoutMs: int(1).default(5_000),
  requestTimeoutMs: int(1).default(10_000),
  bodyTimeoutMs: int(1).default(10_000),
  maxRetries: int(0).max(10).default(2),
  sandboxHosts: hostList.default([]),
  cancelExpiredOrders: flag.default(true),
  expiryPolicy: z.enum(["renew", "cancel"]).default("renew"),
  maxRenewals: int(0).max(10).default(1),
  reminderHoursBeforeExpiry: int(0).max(24 * 30).default(24),
  autoRefundLatePayments: flag.default(false),
  lateSettlementDays: int(0).max(60).default(3),
  pollBatchSize: int(1).max(1000).default(100),
  pollIntervalMinutes: int(0).default(10),
})

export type ResolvedRefpayOptions = Omit<z.infer<typeof schema>, "authUrl" | "backofficeUrl" | "paymentsUrl"> & {
  authUrl: string
  backofficeUrl: string
  paymentsUrl: string
}

const HOW_TO_FIX: Partial<Record<keyof RefpayProviderOptions, string>> = {
  clientId: "set REFPAY_CLIENT_ID to the client_id issued at onboarding",
  clientSecret: "set REFPAY_CLIENT_SECRET to the client_secret issued at onboarding",
  webhookSecret: "set REFPAY_WEBHOOK_SECRET to a random string of at least 16 characters, the same one the platform sends",
  environment: 'set REFPAY_ENVIRONMENT to "sandbox" or "production"',
  account: 'set the provider option "account" to letters, digits or _ (e.g. "porto" for REFPAY_PORTO_* variables)',
  tokenInterface: 'set REFPAY_TOKEN_INTERFACE to "t1" or "t2"',
  t2AuthorizationForm: 'set REFPAY_T2_AUTHORIZATION_FORM to "bearer" or "bare"',
  cancelExpiredOrders: 'set REFPAY_CANCEL_EXPIRED_ORDERS to "true" or "false"',
  autoRefundLatePayments: 'set REFPAY_AUTO_REFUND_LATE_PAYMENTS to "true" or "false"',
  expiryPolicy: 'set REFPAY_EXPIRY_POLICY to "renew" or "cancel"',
}

/** Options from medusa-config, each missing one taken from its environment variable. Empty strings count as unset. */
function withEnvironment(options: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const account = typeof options.account === "string" && options.account ? options.account.toUpperCase() : null
  const merged: Record<string, unknown> = account ? { account: options.account } : {}
  for (const [key, variable] of Object.entries(ENV)) {
    const own = account ? env[variable.replace(/^REFPAY_/, `REFPAY_${account}_`)] : undefined
    const value = options[key] ?? (own !== undefined && own !== "" ? own : env[variable])
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
  return isLoopback(hostname) || listed.includes(hostname) || /(^|[.-])(sandbox|homolog|hml|uat|staging)([.-]|$)/i.test(hostname)
}

function checkEnvironmentUrls(resolved: ResolvedRefpayOptions, problems: string[]): void {
  for (const key of ["authUrl", "backofficeUrl", "paymentsUrl"] as const) {
    if (resolved.tokenInterface === "t1" && key === "backofficeUrl") continue
    if (resolved.tokenInterface === "t2" && key === "authUrl") continue
    const url = new URL(resolved[key])
    const sandboxHost = isSandboxHost(url.hostname, resolved.sandboxHosts)
    if (resolved.environment === "production" && (sandboxHost || url.protocol !== "https:")) {
      problems.push(
        `${key} (${ENV[key]}) is ${url.origin}, a sandbox or non-HTTPS address, but REFPAY_ENVIRONMENT is production: ` +
          `use the production https URL issued at onboarding`
      )
    }
    if (resolved.environment === "sandbox" && !sandboxHost) {
      problems.push(
        `${key} (${ENV[key]}) is ${url.origin}, which is not a sandbox host, but REFPAY_ENVIRONMENT is sandbox: ` +
          `set REFPAY_ENVIRONMENT=production with production credentials, or list the host in REFPAY_SANDBOX_HOSTS`
      )
    }
  }
}

function checkRules(resolved: ResolvedRefpayOptions, problems: string[]): void {
  if (resolved.tokenInterface === "t2" && (!resolved.channel || !resolved.scope)) {
    problems.push("T2 needs channel and scope: set REFPAY_CHANNEL and REFPAY_SCOPE to the values issued at onboarding")
  }
  if (resolved.environment === "production" && !resolved.webhookSecret) {
    problems.push(`webhookSecret (REFPAY_WEBHOOK_SECRET) is required in production: ${HOW_TO_FIX.webhookSecret}`)
  }
  for (const key of ["authUrl", "backofficeUrl", "paymentsUrl"] as const) {
    const needed = key === "paymentsUrl" || (key === "authUrl") === (resolved.tokenInterface === "t1")
    if (needed && !resolved[key]) {
      problems.push(`${key} is required in production: set ${ENV[key]} to the URL issued at onboarding`)
    }
  }
  if (problems.length === 0) checkEnvironmentUrls(resolved, problems)
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const key = String(issue.path[0]) as keyof RefpayProviderOptions
  const variable = key in ENV ? ` (${ENV[key as keyof typeof ENV]})` : ""
  // zod's message never repeats the value for these checks, so no secret can leak through it.
  return `${key}${variable}: ${HOW_TO_FIX[key] ?? issue.message}`
}

export class RefpayOptionsError extends Error {
  override name = "RefpayOptionsError"
}

/**
 * Reads and checks the options; throws a RefpayOptionsError listing every wrong setting with the variable to set.
 * Messages name settings, never their values (a secret may be the wrong value).
 */
export function resolveOptions(options: RefpayProviderOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedRefpayOptions {
  const parsed = schema.safeParse(withEnvironment(options as Record<string, unknown>, env))
  if (!parsed.success) {
    throw new RefpayOptionsError(`REFPAY provider options are invalid: ${parsed.error.issues.map(describeIssue).join("; ")}`)
  }
  const sandbox = parsed.data.environment === "sandbox"
  const resolved = {
    ...parsed.data,
    authUrl: parsed.data.authUrl ?? (sandbox ? SANDBOX_DEFAULT_URLS.authUrl : ""),
    backofficeUrl: parsed.data.backofficeUrl ?? (sandbox ? SANDBOX_DEFAULT_URLS.backofficeUrl : ""),
    paymentsUrl: parsed.data.paymentsUrl ?? (sandbox ? SANDBOX_DEFAULT_URLS.paymentsUrl : ""),
  }
  const problems: string[] = []
  checkRules(resolved, problems)
  if (problems.length > 0) throw new RefpayOptionsError(`REFPAY provider options are invalid: ${problems.join("; ")}`)
  return resolved
}

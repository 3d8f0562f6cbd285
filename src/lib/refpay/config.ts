import type { Dispatcher } from "undici"
import { RefpayConfigError } from "./errors"

/**
 * The logger the client writes to. Medusa's container logger fits (every call passes one string);
 * the client never writes to the console and never passes a secret or a token to it.
 */
export interface RefpayLogger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

/** Which token interface of the platform issues our access tokens (spec 1.1). */
export type RefpayTokenInterface = "t1" | "t2"

/**
 * How a T2 token is written in the Authorization header of payment calls. The spec (5.4) shows both the bare token
 * and "Bearer <token>"; T1 tokens are always sent as "Bearer <token>" (spec 5.3).
 */
export type RefpayT2AuthorizationForm = "bearer" | "bare"

/** The requester identity a T2 token request carries in its JSON body (spec 4.2); empty strings are allowed. */
export interface RefpayRequester {
  branch: string
  login: string
  name: string
  enrollmentNumber: string
}

/**
 * Paths under the base URLs. The token and creation/status paths are the spec's; the cancel path is our choice
 * (docs/platform-contract.md) because the spec does not show it. `{payment_id}` is replaced, URL-encoded.
 */
export interface RefpayPaths {
  /** Under authUrl (spec 4.1). */
  t1Token: string
  /** Under backofficeUrl (spec 4.2). */
  t2Token: string
  /** Under paymentsUrl (spec 4.3). */
  createPayment: string
  /** Under paymentsUrl (spec 4.4); must contain `{payment_id}`. */
  paymentInfo: string
  /** Under paymentsUrl; cancel of a WAITING payment and (partial) refund of an APPROVED one (choice). */
  cancelPayment: string
}

export interface RefpayTimeouts {
  /** Time to open a TCP/TLS connection. Only applies to the client's own pools, not to an injected dispatcher. */
  connectMs: number
  /** Time from sending the request to receiving the complete response headers. */
  headersMs: number
  /** Longest silence between two chunks of the response body. */
  bodyMs: number
}

export interface RefpayRetryPolicy {
  /** Extra attempts after the first, on connection errors and 5xx only; 0 disables retries. */
  maxRetries: number
  /** Backoff before retry n (0-based) is random() * min(maxDelayMs, baseDelayMs * 2^n) ("full jitter"). */
  baseDelayMs: number
  maxDelayMs: number
}

/** What a caller passes to createRefpayClient; everything not marked required has a default. */
export interface RefpayClientConfig {
  /** Required. Which token interface to use. */
  tokenInterface: RefpayTokenInterface
  /** Required for T1. Token service base URL, including its path prefix (e.g. https://host/auth). */
  authUrl?: string
  /** Required for T2. Back-office authentication base URL (may carry a path prefix). */
  backofficeUrl?: string
  /** Required. Payments host base URL (may carry a path prefix). */
  paymentsUrl: string
  /** Required. Issued at onboarding; never logged. */
  clientId: string
  /** Required. Issued at onboarding; never logged, never in an error. */
  clientSecret: string
  /** Required for T2 (header `channel`); unused by T1. */
  channel?: string
  /** Required for T2 (header `scope`); T1 sends it as the OAuth `scope` field only when set. */
  scope?: string
  /** T2 body; defaults to DEFAULT_REQUESTER, four empty strings ("the channel needs no traceability", spec 4.2 rule 1). */
  requester?: Partial<RefpayRequester>
  /** T2 only; default DEFAULT_T2_AUTHORIZATION_FORM ("bearer"). */
  t2AuthorizationForm?: RefpayT2AuthorizationForm
  paths?: Partial<RefpayPaths>
  timeouts?: Partial<RefpayTimeouts>
  retries?: Partial<RefpayRetryPolicy>
  /** Refresh a token this many seconds before it expires (default 60). */
  tokenRefreshWindowSeconds?: number
  /** Keep-alive connection pool per origin. */
  pool?: { connections?: number }
  /** Clock in epoch milliseconds; tests inject one to move time. Default Date.now. */
  now?: () => number
  /** Transport; tests inject one. When given, the client does not create (nor close) its own pools. */
  dispatcher?: Dispatcher
  /** Source of randomness in [0, 1) for backoff jitter. Default Math.random. */
  random?: () => number
  logger?: RefpayLogger
}

/** The settings resolveRefpayConfig hands on as they were given: none of them has a default. */
type HandedOnAsGiven =
  | "tokenInterface"
  | "authUrl"
  | "backofficeUrl"
  | "paymentsUrl"
  | "clientId"
  | "clientSecret"
  | "channel"
  | "scope"
  | "dispatcher"

/** A config with every default filled in and the base URLs it joins paths to checked. */
export interface ResolvedRefpayConfig extends Pick<RefpayClientConfig, HandedOnAsGiven> {
  requester: RefpayRequester
  /** The Authorization form used with this config's tokens; always "bearer" for T1. */
  authorizationForm: RefpayT2AuthorizationForm
  paths: RefpayPaths
  timeouts: RefpayTimeouts
  retries: RefpayRetryPolicy
  tokenRefreshWindowSeconds: number
  pool: { connections: number }
  now: () => number
  random: () => number
  logger: RefpayLogger
}

export const DEFAULT_PATHS: Readonly<RefpayPaths> = Object.freeze({
  t1Token: "/token",
  t2Token: "/v1/token",
  createPayment: "/dpm/payments-gwproxy/v2/payments",
  paymentInfo: "/dpm/hub-payment-info/v1/payments/info/{payment_id}",
  cancelPayment: "/dpm/payments-gwproxy/v2/payments/cancel",
})

export const DEFAULT_TIMEOUTS: Readonly<RefpayTimeouts> = Object.freeze({
  connectMs: 5_000,
  headersMs: 10_000,
  bodyMs: 10_000,
})

export const DEFAULT_RETRIES: Readonly<RefpayRetryPolicy> = Object.freeze({
  maxRetries: 2,
  baseDelayMs: 200,
  maxDelayMs: 2_000,
})

/** T2 requester identity when none is given: "the channel needs no traceability" (spec 4.2 rule 1). */
export const DEFAULT_REQUESTER: Readonly<RefpayRequester> = Object.freeze({
  branch: "",
  login: "",
  name: "",
  enrollmentNumber: "",
})

export const DEFAULT_T2_AUTHORIZATION_FORM: RefpayT2AuthorizationForm = "bearer"

export const DEFAULT_TOKEN_REFRESH_WINDOW_SECONDS = 60
export const DEFAULT_POOL_CONNECTIONS = 50

const SILENT_LOGGER: RefpayLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
}

/**
 * Joins a base URL (which may carry a path prefix such as /auth) and an endpoint path. `new URL(path, base)` would
 * drop the prefix for a path starting with "/", so the two are joined as strings with exactly one slash between.
 */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, "")
  const tail = path.replace(/^\/+/, "")
  return tail ? `${base}/${tail}` : base
}

/**
 * Fills the defaults. Settings are validated where they are set, by the shop's options table
 * (src/config/options-schema.ts); the client checks only what it builds on: the base URLs its token interface
 * needs, which it joins paths to and sends through undici (so present, http(s), and without a query or fragment,
 * which joinUrl would bury under the path). Throws a RefpayConfigError naming every wrong one.
 */
export function resolveRefpayConfig(config: RefpayClientConfig): ResolvedRefpayConfig {
  const problems: string[] = []
  const { tokenInterface } = config
  checkBaseUrl(problems, "paymentsUrl", config.paymentsUrl, true)
  checkBaseUrl(problems, "authUrl", config.authUrl, tokenInterface === "t1")
  checkBaseUrl(problems, "backofficeUrl", config.backofficeUrl, tokenInterface === "t2")
  if (problems.length > 0) {
    throw new RefpayConfigError(`Invalid REFPAY client configuration: ${problems.join("; ")}`)
  }

  return {
    tokenInterface,
    authUrl: config.authUrl,
    backofficeUrl: config.backofficeUrl,
    paymentsUrl: config.paymentsUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    channel: config.channel,
    scope: config.scope,
    requester: { ...DEFAULT_REQUESTER, ...definedOnly(config.requester ?? {}) },
    // T1 tokens are always sent as "Bearer <token>" (spec 5.3).
    authorizationForm:
      tokenInterface === "t1" ? "bearer" : (config.t2AuthorizationForm ?? DEFAULT_T2_AUTHORIZATION_FORM),
    paths: { ...DEFAULT_PATHS, ...definedOnly(config.paths ?? {}) },
    timeouts: { ...DEFAULT_TIMEOUTS, ...definedOnly(config.timeouts ?? {}) },
    retries: { ...DEFAULT_RETRIES, ...definedOnly(config.retries ?? {}) },
    tokenRefreshWindowSeconds: config.tokenRefreshWindowSeconds ?? DEFAULT_TOKEN_REFRESH_WINDOW_SECONDS,
    pool: { connections: config.pool?.connections ?? DEFAULT_POOL_CONNECTIONS },
    now: config.now ?? Date.now,
    dispatcher: config.dispatcher,
    random: config.random ?? Math.random,
    logger: config.logger ?? SILENT_LOGGER,
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

function checkBaseUrl(problems: string[], name: string, value: string | undefined, required: boolean): void {
  if (value === undefined || value === "") {
    if (required) problems.push(`${name} is required`)
    return
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    problems.push(`${name} must be an absolute http(s) URL`)
    return
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") problems.push(`${name} must use http or https`)
  if (url.search || url.hash) problems.push(`${name} must not carry a query string or fragment`)
}

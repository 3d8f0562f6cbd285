import { DEFAULT_CREDENTIALS, type SandboxCredential } from "./credentials"

export type WebhookAuthMode = "header" | "basic"
export type ExpiredStatus = "CANCELLED" | "EXPIRED"
export type AuthorizationForm = "bearer" | "bare" | "both"

export interface SandboxOptions {
  /** TCP port; 0 picks a free one. The CLI defaults to 4010. */
  port: number
  /** "localhost" listens on 127.0.0.1 and ::1 (same port) so http://localhost:PORT works either way. */
  host: string
  /** Where webhook events are POSTed; without it events are recorded but not delivered. */
  webhookUrl?: string
  /** Shared secret sent with every webhook. */
  webhookSecret?: string
  /** "header": x-refpay-webhook-secret; "basic": Authorization Basic refpay:<secret>. */
  webhookAuth: WebhookAuthMode
  /** Retries after the first failed attempt. */
  webhookRetries: number
  /** First retry delay; doubled on every further retry. */
  webhookBackoffMs: number
  /**
   * How long an attempt waits for the shop's answer before it counts as failed and is retried (the platform's own
   * timeout is not shown: 10 s unless given).
   */
  webhookTimeoutMs: number
  /** Token lifetime (expires_in) of both interfaces. */
  tokenTtlSeconds: number
  /** Validity of a WAITING reference (spec: D+7). */
  expiryDays: number
  /** Status an expired reference reports. */
  expiredStatus: ExpiredStatus
  /** Which Authorization header forms payment calls accept (spec 5.3, 5.4). */
  authorizationForm: AuthorizationForm
  /** Accepted credentials; the contract page's default and limited sets unless given. */
  credentials: SandboxCredential[]
  /** Seller of credentials that name none. */
  sellerId?: string
  /** 5-digit entity of credentials that name none. */
  entity?: string
  /**
   * A JSON file that keeps payments, idempotency records, the clock offset and the webhook set-up (never its
   * secret) across restarts: loaded at start, rewritten atomically after changes. Memory only unless given.
   */
  stateFile?: string
  /** Longest wait between a change and its save to `stateFile` (close() saves at once). */
  stateSaveDelayMs?: number
  /**
   * Required by every `/__sandbox` control call once given (`x-refpay-sandbox-token` or `Authorization: Bearer`);
   * required to start at all on a host that is not loopback. Without it: loopback callers only, never forwarded.
   * At least 16 printable ASCII characters, no spaces.
   */
  controlToken?: string
  /**
   * Notable events (webhook failures, handler crashes). Silent unless given, except the warning of a sandbox
   * listening beyond loopback, which goes to stderr when there is no logger.
   */
  logger?: (line: string) => void
}

/** Options after defaults: seller and entity are always known. */
export type ResolvedOptions = SandboxOptions & { sellerId: string; entity: string }

export const DEFAULT_SELLER_ID = "5e11e200-0000-4000-8000-000000000001"
export const DEFAULT_ENTITY = "21098"
export const DEFAULT_PORT = 4010

export class SandboxOptionsError extends Error {
  override name = "SandboxOptionsError"
}

export function resolveOptions(given: Partial<SandboxOptions> = {}): ResolvedOptions {
  const defined = Object.fromEntries(
    Object.entries(given).filter(([, v]) => v !== undefined)
  ) as Partial<SandboxOptions>
  const options: ResolvedOptions = {
    port: 0,
    host: "localhost",
    webhookAuth: "header",
    webhookRetries: 5,
    webhookBackoffMs: 1000,
    webhookTimeoutMs: 10_000,
    tokenTtlSeconds: 3600,
    expiryDays: 7,
    expiredStatus: "CANCELLED",
    authorizationForm: "both",
    credentials: DEFAULT_CREDENTIALS.map((c) => ({ ...c })),
    ...defined,
    sellerId: defined.sellerId ?? DEFAULT_SELLER_ID,
    entity: defined.entity ?? DEFAULT_ENTITY,
  }
  validate(options)
  return options
}

/** A control token travels in a header: printable ASCII without spaces, and long enough not to be guessed. */
const CONTROL_TOKEN = /^[\x21-\x7e]{16,}$/

function validate(o: ResolvedOptions): void {
  integer("port", o.port, 0, 65535)
  integer("webhookRetries", o.webhookRetries, 0, 100)
  integer("webhookBackoffMs", o.webhookBackoffMs, 0, 3_600_000)
  integer("webhookTimeoutMs", o.webhookTimeoutMs, 100, 300_000)
  integer("tokenTtlSeconds", o.tokenTtlSeconds, 1, 31_536_000)
  if (!(typeof o.expiryDays === "number" && o.expiryDays > 0)) fail("expiryDays", "a number of days > 0")
  oneOf("webhookAuth", o.webhookAuth, ["header", "basic"])
  oneOf("expiredStatus", o.expiredStatus, ["CANCELLED", "EXPIRED"])
  oneOf("authorizationForm", o.authorizationForm, ["bearer", "bare", "both"])
  if (typeof o.host !== "string" || o.host.length === 0) fail("host", "a host name or address")
  if (o.webhookUrl !== undefined) webhookUrl(o.webhookUrl)
  if (o.stateFile !== undefined && (typeof o.stateFile !== "string" || o.stateFile.length === 0))
    fail("stateFile", "a file path")
  if (o.controlToken !== undefined && (typeof o.controlToken !== "string" || !CONTROL_TOKEN.test(o.controlToken))) {
    fail("controlToken", "at least 16 printable ASCII characters without spaces, e.g. from `openssl rand -hex 32`")
  }
  if (o.stateSaveDelayMs !== undefined) integer("stateSaveDelayMs", o.stateSaveDelayMs, 0, 60_000)
  if (!/^\d{5}$/.test(o.entity)) fail("entity", "5 digits, e.g. 21098")
  if (!Array.isArray(o.credentials) || o.credentials.length === 0) fail("credentials", "at least one credential")
  for (const c of o.credentials) credential(c)
}

export function webhookUrl(value: string): void {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return fail("webhookUrl", "an absolute http(s) URL")
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") fail("webhookUrl", "an absolute http(s) URL")
}

function credential(c: SandboxCredential): void {
  for (const key of ["clientId", "clientSecret", "channel", "scope"] as const) {
    if (typeof c[key] !== "string" || c[key].length === 0) fail(`credentials.${key}`, "a non-empty string")
  }
  if (c.entity !== undefined && !/^\d{5}$/.test(c.entity)) fail("credentials.entity", "5 digits")
}

function integer(name: string, value: unknown, min: number, max: number): void {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    fail(name, `an integer from ${min} to ${max}`)
  }
}

function oneOf(name: string, value: unknown, allowed: string[]): void {
  if (!allowed.includes(value as string)) fail(name, `one of ${allowed.join(", ")}`)
}

function fail(name: string, expected: string): never {
  throw new SandboxOptionsError(`Sandbox option ${name} must be ${expected}.`)
}

import { randomUUID } from "node:crypto"
import {
  createRedactor,
  createRefpayClient,
  DEFAULT_PATHS,
  joinUrl,
  RefpayAuthenticationError,
  RefpayConfigError,
  RefpayConnectionError,
  RefpayError,
  RefpayNotFoundError,
  RefpayPermissionError,
  RefpayResponseError,
  RefpayServerError,
  RefpayTimeoutError,
  RefpayValidationError,
  type RefpayClient,
  type RefpayClientConfig,
} from "../lib/refpay"
import { clientConfigOf } from "../providers/refpay/client-config"
import { configuredSecrets, type ResolvedRefpayOptions } from "../config"

/**
 * "Test connection" on the admin's REFPAY page: gets a token from the configured interface and makes one harmless
 * authenticated call, a status read of a random payment id. The platform answering 404 PAYMENT_NOT_FOUND proves the
 * token works and its scope covers payments; anything else is explained in plain words with the platform's code.
 *
 * The test uses its own client built from the provider's resolved settings, without retries, so it neither waits
 * through backoffs nor touches the token cache that payments share. Nothing it answers carries a credential: the
 * texts are ours, the platform's detail is redacted by the client and again here with every configured credential.
 */

export type ConnectionProblem =
  | "credentials_refused"
  | "scope_not_granted"
  | "token_rejected_by_payments"
  | "request_refused"
  | "host_unreachable"
  | "tls_error"
  | "timeout"
  | "platform_error"
  | "wrong_url"
  | "unexpected_response"
  | "configuration_error"

export interface ConnectionStep {
  step: "token" | "payments"
  /** "ok", "failed", or "skipped" (the token step failed, so no payment call was made). */
  result: "ok" | "failed" | "skipped"
  /** The URL called (base URL and path; never a credential). */
  url: string
  http_status: number | null
  /** The platform's code (T1 `error`, T2 `name`, payments `error_code`) or the transport's (ECONNREFUSED, ...). */
  code: string | null
  /** One sentence on what this step showed. */
  message: string
}

export interface ConnectionTestResult {
  ok: boolean
  environment: "sandbox" | "production"
  token_interface: "t1" | "t2"
  problem: ConnectionProblem | null
  /** What worked and what failed, in plain words. */
  summary: string
  /** What to check or change. */
  hint: string | null
  /** The platform's (redacted) detail of the failure, when it gave one. */
  platform_detail: string | null
  steps: ConnectionStep[]
  tested_at: string
  duration_ms: number
}

/** How one failure reads, decided from the error alone (pure, table-tested). */
export interface Diagnosis {
  step: "token" | "payments"
  problem: ConnectionProblem
  summary: string
  hint: string | null
}

const TLS_CODES =
  /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_|ERR_SSL_|EPROTO$|HOSTNAME_MISMATCH|ERR_OSSL_)/
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME"])
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENETDOWN"])

export interface DiagnoseContext {
  environment: "sandbox" | "production"
  tokenInterface: "t1" | "t2"
  /** Origin of the URL that failed, e.g. https://auth.example.com. */
  origin: string
  connectTimeoutMs: number
  requestTimeoutMs: number
}

/** Which variables hold the credentials of the configured interface. */
function credentialVariables(tokenInterface: "t1" | "t2"): string {
  return tokenInterface === "t1"
    ? "REFPAY_CLIENT_ID and REFPAY_CLIENT_SECRET"
    : "REFPAY_CLIENT_ID, REFPAY_CLIENT_SECRET, REFPAY_CHANNEL and REFPAY_SCOPE"
}

function environmentHint(environment: "sandbox" | "production"): string {
  return environment === "production"
    ? "Sandbox credentials do not work in production: use the production credentials issued at onboarding."
    : "Production credentials do not work in the sandbox: use the sandbox credentials issued for homologation."
}

/** Says what a failed step means for the shop owner. */
export function diagnose(error: unknown, context: DiagnoseContext): Diagnosis {
  const operation = error instanceof RefpayError ? (error.operation ?? "") : ""
  const step: Diagnosis["step"] = /token request$/i.test(operation) ? "token" : "payments"
  const what = step === "token" ? "The token service" : "The payments API"
  const at = context.origin
  const status = error instanceof RefpayError && error.status ? `${error.status} ` : ""
  const code = error instanceof RefpayError ? error.code : "UNKNOWN"

  if (error instanceof RefpayConfigError) {
    return {
      step: "token",
      problem: "configuration_error",
      summary: `The REFPAY settings are incomplete: ${error.message}`,
      hint: "Fix the setting named and restart Medusa.",
    }
  }
  if (error instanceof RefpayTimeoutError) {
    const connect = code === "UND_ERR_CONNECT_TIMEOUT"
    return {
      step,
      problem: "timeout",
      summary: connect
        ? `${what} at ${at} could not be reached within ${context.connectTimeoutMs} ms (${code}).`
        : `${what} at ${at} accepted the connection but did not answer within ${context.requestTimeoutMs} ms (${code}).`,
      hint: connect
        ? "Check that the host is reachable from this server (firewall, proxy, VPN) or raise REFPAY_CONNECT_TIMEOUT_MS."
        : "The platform may be slow right now: try again, or raise REFPAY_REQUEST_TIMEOUT_MS.",
    }
  }
  if (error instanceof RefpayConnectionError) {
    if (TLS_CODES.test(code)) {
      return {
        step,
        problem: "tls_error",
        summary: `The secure (TLS) connection to ${at} failed (${code}): its certificate is not trusted or does not match the host name.`,
        hint: "Check the URL's host name; a certificate signed by a private authority needs NODE_EXTRA_CA_CERTS on this server.",
      }
    }
    if (DNS_CODES.has(code)) {
      return {
        step,
        problem: "host_unreachable",
        summary: `The host of ${at} could not be found (${code}): its name does not resolve from this server.`,
        hint: "Check the host name in the URL setting, and this server's DNS.",
      }
    }
    if (UNREACHABLE_CODES.has(code)) {
      return {
        step,
        problem: "host_unreachable",
        summary: `${what} at ${at} could not be reached (${code}${code === "ECONNREFUSED" ? ": nothing is listening there" : ""}).`,
        hint:
          context.environment === "sandbox"
            ? "Check the URL settings; for the local sandbox, start it (npx refpay-sandbox) on the configured port."
            : "Check the URL settings and that this server may connect to the platform (firewall, proxy).",
      }
    }
    return {
      step,
      problem: "host_unreachable",
      summary: `The connection to ${at} failed (${code}).`,
      hint: "Check the URL settings and the network between this server and the platform.",
    }
  }
  if (error instanceof RefpayResponseError) {
    return {
      step,
      problem: "unexpected_response",
      summary: `${what} at ${at} answered ${status}with a body that is not the platform's (${code}).`,
      hint: "The URL may point at another service: check the URL and path settings.",
    }
  }
  if (step === "token") {
    if (error instanceof RefpayAuthenticationError) {
      return {
        step,
        problem: "credentials_refused",
        summary: `The token service refused the shop's credentials (${status}${code}). No token was issued.`,
        hint: `Check ${credentialVariables(context.tokenInterface)}. ${environmentHint(context.environment)}`,
      }
    }
    if (error instanceof RefpayPermissionError || code === "invalid_scope") {
      return {
        step,
        problem: "scope_not_granted",
        summary: `The token service knows the credentials but does not grant the requested scope (${status}${code}).`,
        hint: "Check REFPAY_SCOPE; widening a scope is done by the platform operator (it follows the contract).",
      }
    }
    if (error instanceof RefpayValidationError) {
      return {
        step,
        problem: "request_refused",
        summary: `The token service refused the token request (${status}${code}).`,
        hint: `Check ${credentialVariables(context.tokenInterface)} and REFPAY_TOKEN_INTERFACE (t1 or t2, as issued at onboarding).`,
      }
    }
  } else {
    if (error instanceof RefpayPermissionError) {
      return {
        step,
        problem: "scope_not_granted",
        summary: `A token was issued, but its scope does not cover payments: the payments API answered ${status}${code}.`,
        hint: "Ask the platform operator to grant the payments scope to these credentials, or check REFPAY_SCOPE.",
      }
    }
    if (error instanceof RefpayAuthenticationError) {
      return {
        step,
        problem: "token_rejected_by_payments",
        summary: `A token was issued, but the payments API refused it (${status}${code}), even freshly issued.`,
        hint:
          "The token service and the payments host may belong to different environments: check that the token URL and " +
          `REFPAY_PAYMENTS_URL are both ${context.environment} ones.`,
      }
    }
    if (error instanceof RefpayNotFoundError) {
      return {
        step,
        problem: "wrong_url",
        summary: `The payments host answered 404 without the platform's PAYMENT_NOT_FOUND code (${code}).`,
        hint: "REFPAY_PAYMENTS_URL or REFPAY_PAYMENT_INFO_PATH probably points at the wrong place.",
      }
    }
  }
  if (error instanceof RefpayServerError) {
    return {
      step,
      problem: "platform_error",
      summary: `${what} answered with a server error (${status}${code}).`,
      hint: "The platform has a problem right now; try again in a few minutes.",
    }
  }
  if (error instanceof RefpayError) {
    return {
      step,
      problem: "request_refused",
      summary: `${what} refused the request (${status}${code}).`,
      hint: null,
    }
  }
  return {
    step,
    problem: "unexpected_response",
    summary: `${what} could not be tested: ${(error as Error)?.name ?? "error"}.`,
    hint: null,
  }
}

/** The platform's detail of a failure (already redacted by the client), without any configured credential. */
export function platformDetail(error: unknown, secrets: (string | undefined)[]): string | null {
  if (!(error instanceof RefpayError) || error instanceof RefpayConnectionError) return null
  const body = error.body as Record<string, unknown> | string | undefined
  const pieces: string[] = []
  if (typeof body === "string") pieces.push(body)
  else if (body && typeof body === "object") {
    for (const key of ["error_description", "message", "description"]) {
      if (typeof body[key] === "string") pieces.push(body[key] as string)
    }
    const details = Array.isArray(body.details) ? (body.details as Record<string, unknown>[]) : []
    for (const detail of details.slice(0, 3)) {
      for (const key of ["error_code", "description_detail", "description", "message"]) {
        if (typeof detail?.[key] === "string") pieces.push(detail[key] as string)
      }
    }
  }
  const text = createRedactor(secrets).redactText([...new Set(pieces)].join("; ").replace(/\s+/g, " ").trim())
  if (!text) return null
  return text.length > 300 ? `${text.slice(0, 300)}…` : text
}

/** The platform client the provider would build from these settings, without retries. */
export function testClientConfig(settings: Readonly<ResolvedRefpayOptions>): RefpayClientConfig {
  return { ...clientConfigOf(settings), retries: { maxRetries: 0 } }
}

/** What a failed step shows next to its code; the summary says the rest. */
const STEP_FAILURE: Record<ConnectionProblem, string> = {
  credentials_refused: "The credentials were refused.",
  scope_not_granted: "The scope does not cover this.",
  token_rejected_by_payments: "The token was refused.",
  request_refused: "The request was refused.",
  host_unreachable: "No connection.",
  tls_error: "The secure connection failed.",
  timeout: "No answer in time.",
  platform_error: "The platform failed.",
  wrong_url: "Not the platform's answer.",
  unexpected_response: "Not the platform's answer.",
  configuration_error: "Not tried: the settings are incomplete.",
}

export interface ConnectionTestDeps {
  createClient?: (config: RefpayClientConfig) => RefpayClient
  now?: () => number
}

/** Runs the test against the platform the settings point at. Never throws: every failure is a result. */
export async function testRefpayConnection(
  settings: Readonly<ResolvedRefpayOptions>,
  deps: ConnectionTestDeps = {}
): Promise<ConnectionTestResult> {
  const now = deps.now ?? Date.now
  const started = now()
  const t1 = settings.tokenInterface === "t1"
  const tokenUrl = t1 ? joinUrl(settings.authUrl, "/token") : joinUrl(settings.backofficeUrl, "/v1/token")
  const probeId = randomUUID()
  const infoPath = settings.paymentInfoPath ?? DEFAULT_PATHS.paymentInfo
  const paymentsUrl = joinUrl(settings.paymentsUrl, infoPath.replace("{payment_id}", probeId))
  const secrets = configuredSecrets(settings)
  const base = {
    environment: settings.environment,
    token_interface: settings.tokenInterface,
    tested_at: new Date(started).toISOString(),
  }
  const tokenStep = (
    result: ConnectionStep["result"],
    message: string,
    extra: Partial<ConnectionStep> = {}
  ): ConnectionStep => ({
    step: "token",
    result,
    url: tokenUrl,
    http_status: null,
    code: null,
    message,
    ...extra,
  })
  const paymentsStep = (
    result: ConnectionStep["result"],
    message: string,
    extra: Partial<ConnectionStep> = {}
  ): ConnectionStep => ({
    step: "payments",
    result,
    url: paymentsUrl,
    http_status: null,
    code: null,
    message,
    ...extra,
  })
  const iface = t1 ? "T1 (OAuth client credentials)" : "T2 (back-office token)"
  const platformName = settings.environment === "sandbox" ? "the REFPAY sandbox" : "REFPAY production"

  let client: RefpayClient | undefined
  try {
    client = (deps.createClient ?? createRefpayClient)(testClientConfig(settings))
    const found = await client.getPayment(probeId)
    // A payment with a random id should not exist; an answer still proves the token and scope work.
    return {
      ...base,
      ok: true,
      problem: null,
      summary: `Connected to ${platformName}: the ${iface} token service issued a token and the payments API accepted it.`,
      hint: null,
      platform_detail: null,
      steps: [
        tokenStep("ok", "A token was issued."),
        paymentsStep("ok", `The status read answered 200 (${found.status}) for a made-up payment id.`, {
          http_status: 200,
        }),
      ],
      duration_ms: now() - started,
    }
  } catch (error) {
    if (error instanceof RefpayNotFoundError && error.code === "PAYMENT_NOT_FOUND") {
      return {
        ...base,
        ok: true,
        problem: null,
        summary:
          `Connected to ${platformName}: the ${iface} token service issued a token, and the payments API accepted it ` +
          "(a status read of a made-up payment answered 404 PAYMENT_NOT_FOUND, as expected).",
        hint: null,
        platform_detail: null,
        steps: [
          tokenStep("ok", "A token was issued."),
          paymentsStep("ok", "The token and its scope work: the made-up payment is unknown, as expected.", {
            http_status: 404,
            code: "PAYMENT_NOT_FOUND",
          }),
        ],
        duration_ms: now() - started,
      }
    }
    const failedUrl =
      error instanceof RefpayError && /token request$/i.test(error.operation ?? "") ? tokenUrl : paymentsUrl
    const diagnosis = diagnose(error, {
      environment: settings.environment,
      tokenInterface: settings.tokenInterface,
      origin: safeOrigin(failedUrl),
      connectTimeoutMs: settings.connectTimeoutMs,
      requestTimeoutMs: settings.requestTimeoutMs,
    })
    const failure = {
      http_status: error instanceof RefpayError ? (error.status ?? null) : null,
      code: error instanceof RefpayError ? error.code : null,
    }
    const steps =
      diagnosis.step === "token"
        ? [
            tokenStep("failed", STEP_FAILURE[diagnosis.problem], failure),
            paymentsStep("skipped", "Not tried: no token."),
          ]
        : [tokenStep("ok", "A token was issued."), paymentsStep("failed", STEP_FAILURE[diagnosis.problem], failure)]
    return {
      ...base,
      ok: false,
      problem: diagnosis.problem,
      summary: diagnosis.summary,
      hint: diagnosis.hint,
      platform_detail: platformDetail(error, secrets),
      steps,
      duration_ms: now() - started,
    }
  } finally {
    await client?.close().catch(() => undefined)
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

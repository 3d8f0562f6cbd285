import { randomUUID } from "node:crypto"
import {
  createRefpayClient,
  DEFAULT_PATHS,
  joinUrl,
  RefpayError,
  RefpayNotFoundError,
  type RefpayClient,
  type RefpayClientConfig,
} from "../../../../lib/refpay"
import { clientConfigOf } from "../../../../providers/refpay/client-config"
import { configuredSecrets, type ResolvedRefpayOptions } from "../../../../config"
import { diagnose, failedAtToken, platformDetail, type ConnectionProblem } from "./connection-diagnosis"
import { connectionText as text, type ConnectionText, type ConnectionTextCode } from "./connection-texts"

/**
 * "Test connection" on the admin's REFPAY page: gets a token from the configured interface and makes one harmless
 * authenticated call, a status read of a random payment id. The platform answering 404 PAYMENT_NOT_FOUND proves the
 * token works and its scope covers payments; anything else is explained (connection-diagnosis.ts) with the
 * platform's code, as texts the admin UI says in the admin's language.
 *
 * The test uses its own client built from the provider's resolved settings, without retries, so it neither waits
 * through backoffs nor touches the token cache that payments share. Nothing it answers carries a credential: the
 * texts are codes and values of ours, the platform's detail is redacted by the client and again with every
 * configured credential.
 */

export { diagnose, platformDetail, type ConnectionProblem, type DiagnoseContext } from "./connection-diagnosis"
export type { ConnectionText } from "./connection-texts"

export interface ConnectionStep {
  step: "token" | "payments"
  /** "ok", "failed", or "skipped" (the token step failed, so no payment call was made). */
  result: "ok" | "failed" | "skipped"
  /** The URL called (base URL and path; never a credential). */
  url: string
  http_status: number | null
  /** The platform's code (T1 `error`, T2 `name`, payments `error_code`) or the transport's (ECONNREFUSED, ...). */
  code: string | null
  /** What this step showed. */
  message: ConnectionText
}

export interface ConnectionTestResult {
  ok: boolean
  environment: "sandbox" | "production"
  token_interface: "t1" | "t2"
  problem: ConnectionProblem | null
  /** What worked and what failed. */
  summary: ConnectionText
  /** What to check or change. */
  hint: ConnectionText | null
  /** The platform's (redacted) detail of the failure, when it gave one: the platform's own words. */
  platform_detail: string | null
  steps: ConnectionStep[]
  tested_at: string
  duration_ms: number
}

/** The platform client the provider would build from these settings, without retries. */
export function testClientConfig(settings: Readonly<ResolvedRefpayOptions>): RefpayClientConfig {
  return { ...clientConfigOf(settings), retries: { maxRetries: 0 } }
}

/** What a failed step shows next to its code; the summary says the rest. */
const STEP_FAILURE: Record<ConnectionProblem, ConnectionTextCode> = {
  credentials_refused: "step_credentials_refused",
  scope_not_granted: "step_scope_not_granted",
  token_rejected_by_payments: "step_token_refused",
  request_refused: "step_request_refused",
  host_unreachable: "step_no_connection",
  tls_error: "step_tls_failed",
  timeout: "step_no_answer_in_time",
  platform_error: "step_platform_failed",
  wrong_url: "step_not_platform_answer",
  unexpected_response: "step_not_platform_answer",
  configuration_error: "step_settings_incomplete",
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
  const base = {
    environment: settings.environment,
    token_interface: settings.tokenInterface,
    tested_at: new Date(started).toISOString(),
  }
  const step =
    (name: ConnectionStep["step"], url: string) =>
    (
      result: ConnectionStep["result"],
      message: ConnectionText,
      extra: Partial<ConnectionStep> = {}
    ): ConnectionStep => ({
      step: name,
      result,
      url,
      http_status: null,
      code: null,
      message,
      ...extra,
    })
  const tokenStep = step("token", tokenUrl)
  const paymentsStep = step("payments", paymentsUrl)
  const connected = { platform: settings.environment, interface: settings.tokenInterface }
  const passed = (summary: ConnectionText, payments: ConnectionStep): ConnectionTestResult => ({
    ...base,
    ok: true,
    problem: null,
    summary,
    hint: null,
    platform_detail: null,
    steps: [tokenStep("ok", text("step_token_issued")), payments],
    duration_ms: now() - started,
  })

  let client: RefpayClient | undefined
  try {
    client = (deps.createClient ?? createRefpayClient)(testClientConfig(settings))
    const found = await client.getPayment(probeId)
    // A payment with a random id should not exist; an answer still proves the token and scope work.
    return passed(
      text("connected", connected),
      paymentsStep("ok", text("step_status_read", { status: found.status }), { http_status: 200 })
    )
  } catch (error) {
    if (error instanceof RefpayNotFoundError && error.code === "PAYMENT_NOT_FOUND") {
      return passed(
        text("connected_payment_unknown", connected),
        paymentsStep("ok", text("step_payment_unknown"), { http_status: 404, code: "PAYMENT_NOT_FOUND" })
      )
    }
    const diagnosis = diagnose(error, {
      environment: settings.environment,
      tokenInterface: settings.tokenInterface,
      origin: safeOrigin(failedAtToken(error) ? tokenUrl : paymentsUrl),
      connectTimeoutMs: settings.connectTimeoutMs,
      requestTimeoutMs: settings.requestTimeoutMs,
    })
    const failure = {
      http_status: error instanceof RefpayError ? (error.status ?? null) : null,
      code: error instanceof RefpayError ? error.code : null,
    }
    const failed = text(STEP_FAILURE[diagnosis.problem])
    const steps =
      diagnosis.step === "token"
        ? [tokenStep("failed", failed, failure), paymentsStep("skipped", text("step_not_tried_no_token"))]
        : [tokenStep("ok", text("step_token_issued")), paymentsStep("failed", failed, failure)]
    return {
      ...base,
      ok: false,
      problem: diagnosis.problem,
      summary: diagnosis.summary,
      hint: diagnosis.hint,
      platform_detail: platformDetail(error, configuredSecrets(settings)),
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

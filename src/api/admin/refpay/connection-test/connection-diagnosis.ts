import {
  createRedactor,
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
} from "../../../../lib/refpay"
import { connectionText as text, type ConnectionText } from "./connection-texts"

/**
 * What a failed connection test means for the shop owner, decided from the error alone (pure, table-tested). Every
 * sentence is a code with its values (ConnectionText); the admin UI says it in the admin's language
 * (src/admin/i18n, `refpay.connection.texts`).
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

export interface Diagnosis {
  step: "token" | "payments"
  problem: ConnectionProblem
  summary: ConnectionText
  hint: ConnectionText | null
}

export interface DiagnoseContext {
  environment: "sandbox" | "production"
  tokenInterface: "t1" | "t2"
  /** Origin of the URL that failed, e.g. https://auth.example.com. */
  origin: string
  connectTimeoutMs: number
  requestTimeoutMs: number
}

const TLS_CODES =
  /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_|ERR_SSL_|EPROTO$|HOSTNAME_MISMATCH|ERR_OSSL_)/
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME"])
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENETDOWN"])

/** Whether the error is the token request's (else the payments call's). */
export function failedAtToken(error: unknown): boolean {
  return error instanceof RefpayError && /token request$/i.test(error.operation ?? "")
}

/** Says what a failed step means for the shop owner. */
export function diagnose(error: unknown, context: DiagnoseContext): Diagnosis {
  const step: Diagnosis["step"] = failedAtToken(error) ? "token" : "payments"
  const code = error instanceof RefpayError ? error.code : "UNKNOWN"
  // The platform's answer as the texts quote it: "401 unauthorized_client", or the code alone.
  const reply = error instanceof RefpayError && error.status ? `${error.status} ${code}` : code
  const at = { service: step, origin: context.origin, code }
  const credentials = { credentials: context.tokenInterface }

  if (error instanceof RefpayConfigError) {
    return {
      step: "token",
      problem: "configuration_error",
      summary: text("settings_incomplete", { detail: error.message }),
      hint: text("fix_setting"),
    }
  }
  if (error instanceof RefpayTimeoutError) {
    return code === "UND_ERR_CONNECT_TIMEOUT"
      ? {
          step,
          problem: "timeout",
          summary: text("connect_timeout", { ...at, ms: context.connectTimeoutMs }),
          hint: text("check_reachable_or_connect_timeout"),
        }
      : {
          step,
          problem: "timeout",
          summary: text("answer_timeout", { ...at, ms: context.requestTimeoutMs }),
          hint: text("retry_or_request_timeout"),
        }
  }
  if (error instanceof RefpayConnectionError) return connectionFailure(step, code, at, context)
  if (error instanceof RefpayResponseError) {
    return {
      step,
      problem: "unexpected_response",
      summary: text("not_the_platform_body", { ...at, status: error.status ? `${error.status} ` : "" }),
      hint: text("check_url_and_paths"),
    }
  }
  if (step === "token") {
    if (error instanceof RefpayAuthenticationError) {
      return {
        step,
        problem: "credentials_refused",
        summary: text("credentials_refused", { reply }),
        hint: text("check_credentials", { ...credentials, environment_note: context.environment }),
      }
    }
    if (error instanceof RefpayPermissionError || code === "invalid_scope") {
      return {
        step,
        problem: "scope_not_granted",
        summary: text("scope_not_granted", { reply }),
        hint: text("check_scope"),
      }
    }
    if (error instanceof RefpayValidationError) {
      return {
        step,
        problem: "request_refused",
        summary: text("token_request_refused", { reply }),
        hint: text("check_credentials_and_interface", credentials),
      }
    }
  } else {
    if (error instanceof RefpayPermissionError) {
      return {
        step,
        problem: "scope_not_granted",
        summary: text("scope_not_covering_payments", { reply }),
        hint: text("ask_for_payments_scope"),
      }
    }
    if (error instanceof RefpayAuthenticationError) {
      return {
        step,
        problem: "token_rejected_by_payments",
        summary: text("token_rejected_by_payments", { reply }),
        hint: text("check_same_environment", { environment: context.environment }),
      }
    }
    if (error instanceof RefpayNotFoundError) {
      return {
        step,
        problem: "wrong_url",
        summary: text("not_found_not_platform", { code }),
        hint: text("check_payments_url"),
      }
    }
  }
  if (error instanceof RefpayServerError) {
    return {
      step,
      problem: "platform_error",
      summary: text("server_error", { ...at, reply }),
      hint: text("retry_later"),
    }
  }
  if (error instanceof RefpayError) {
    return { step, problem: "request_refused", summary: text("request_refused", { ...at, reply }), hint: null }
  }
  return {
    step,
    problem: "unexpected_response",
    summary: text("could_not_test", { ...at, name: (error as Error)?.name ?? "error" }),
    hint: null,
  }
}

/** A connection that failed before any answer: TLS, a name that does not resolve, a host that cannot be reached. */
function connectionFailure(
  step: Diagnosis["step"],
  code: string,
  at: { service: string; origin: string; code: string },
  context: DiagnoseContext
): Diagnosis {
  if (TLS_CODES.test(code)) {
    return { step, problem: "tls_error", summary: text("tls_failed", at), hint: text("check_host_and_certificate") }
  }
  if (DNS_CODES.has(code)) {
    return { step, problem: "host_unreachable", summary: text("host_not_found", at), hint: text("check_host_and_dns") }
  }
  if (UNREACHABLE_CODES.has(code)) {
    return {
      step,
      problem: "host_unreachable",
      summary: text(code === "ECONNREFUSED" ? "nothing_listening" : "unreachable", at),
      hint: text(context.environment === "sandbox" ? "start_local_sandbox" : "check_urls_and_firewall"),
    }
  }
  return {
    step,
    problem: "host_unreachable",
    summary: text("connection_failed", at),
    hint: text("check_urls_and_network"),
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
  const redacted = createRedactor(secrets).redactText([...new Set(pieces)].join("; ").replace(/\s+/g, " ").trim())
  if (!redacted) return null
  return redacted.length > 300 ? `${redacted.slice(0, 300)}…` : redacted
}

import { STATUS_CODES } from "node:http"
import { json, NO_STORE, type Reply } from "./reply"

/**
 * The sandbox speaks three error dialects, one per part of the platform:
 *  - T1 (OAuth2, spec 2.2): `{ error, error_description? }`
 *  - T2 and authentication failures on every other API (spec 2.4 and 7)
 *  - the payments API (contract page): `{ error_code, message, details: [{ field, message }] }`
 * `/__sandbox` controls reuse the payments dialect.
 */
export type Area = "t1" | "t2" | "payments" | "controls"

export function areaOf(path: string): Area {
  if (path.startsWith("/__sandbox")) return "controls"
  if (path === "/auth" || path.startsWith("/auth/")) return "t1"
  if (path === "/backoffice" || path.startsWith("/backoffice/")) return "t2"
  return "payments"
}

export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? "Error"
}

export function t1Error(status: number, error: string, description?: string): Reply {
  const body = description === undefined ? { error } : { error, error_description: description }
  return json(status, body, NO_STORE)
}

/** The OAuth error code that fits an HTTP status, for errors the sandbox makes up (404, faults). */
export function t1CodeFor(status: number): string {
  if (status === 401) return "unauthorized_client"
  if (status === 403) return "access_denied"
  if (status === 503) return "temporarily_unavailable"
  if (status >= 500) return "server_error"
  return "invalid_request"
}

/** One `details` entry of the T2 body. */
export interface T2Problem {
  description: string
  /** The exact field and reason; for a 401 a short code text such as INVALID_CREDENTIALS. */
  detail: string
}

const T2_NAMES: Record<number, string> = {
  400: "HeaderValidation",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  409: "Conflict",
  413: "PayloadTooLarge",
  429: "TooManyRequests",
  500: "InternalServerError",
  502: "BadGateway",
  503: "ServiceUnavailable",
  504: "GatewayTimeout",
}

export function t2Name(status: number): string {
  return T2_NAMES[status] ?? (status >= 500 ? "InternalServerError" : "Error")
}

export function t2Error(status: number, problems: T2Problem[], extraHeaders?: Reply["headers"]): Reply {
  const details = problems.map((p) => ({
    status: "DENIED",
    error_code: `GENERIC-${status}`,
    description: p.description,
    description_detail: p.detail,
  }))
  return json(
    status,
    { status_code: status, name: t2Name(status), message: reasonPhrase(status), details },
    extraHeaders
  )
}

/** One `details` entry of the payments API body. */
export interface FieldProblem {
  /** Dotted path of the request field, e.g. `data.amount`. */
  field: string
  message: string
}

export function paymentsError(status: number, code: string, message: string, details: FieldProblem[] = []): Reply {
  return json(status, { error_code: code, message, details })
}

/**
 * An error the platform itself would produce outside any handler (unknown route, wrong method, body too
 * large, injected fault, crash), in the dialect of the area the path belongs to.
 */
export function areaError(area: Area, status: number, code: string, message: string): Reply {
  if (area === "t1") return t1Error(status, t1CodeFor(status), message)
  if (area === "t2") return t2Error(status, [{ description: reasonPhrase(status), detail: code }])
  return paymentsError(status, code, message)
}

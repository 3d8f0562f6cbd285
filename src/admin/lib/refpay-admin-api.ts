/**
 * Calls to the plugin's /admin/refpay routes from the admin, with the admin's own authentication: the session
 * cookie (`credentials: "include"`), as the order widget does; an admin built with JWT auth keeps its token where
 * Medusa's JS SDK keeps it, and the same header the SDK would send is added.
 */

// Set by the admin's build (as for the dashboard itself); absent when this file is built on its own.
declare const __BACKEND_URL__: string | undefined
declare const __AUTH_TYPE__: string | undefined
declare const __JWT_TOKEN_STORAGE_KEY__: string | undefined

export interface AdminAnswer<T> {
  ok: boolean
  status: number
  body: T
  /** The server's message when the call failed. */
  message: string | null
  headers: Headers
}

export async function refpayAdmin<T = unknown>(
  method: "GET" | "POST",
  path: string,
  query?: Record<string, string | number | undefined>,
  body: Record<string, unknown> = {}
): Promise<AdminAnswer<T>> {
  const base = typeof __BACKEND_URL__ === "string" && __BACKEND_URL__ ? __BACKEND_URL__ : "/"
  const search = query
    ? new URLSearchParams(
        Object.entries(query)
          .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== "")
          .map(([k, v]) => [k, String(v)])
      ).toString()
    : ""
  const response = await fetch(`${base.replace(/\/+$/, "")}${path}${search ? `?${search}` : ""}`, {
    method,
    credentials: "include",
    headers: {
      accept: "application/json",
      ...(method === "POST" ? { "content-type": "application/json" } : {}),
      ...authHeader(),
    },
    body: method === "POST" ? JSON.stringify(definedOnly(body)) : undefined,
  })
  const answer = await response.json().catch(() => null)
  return {
    ok: response.ok,
    status: response.status,
    body: answer,
    message: response.ok ? null : ((answer as { message?: string } | null)?.message ?? `HTTP ${response.status}`),
    headers: response.headers,
  }
}

function definedOnly(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined))
}

function authHeader(): Record<string, string> {
  if (typeof __AUTH_TYPE__ !== "string" || __AUTH_TYPE__ !== "jwt") return {}
  const key = (typeof __JWT_TOKEN_STORAGE_KEY__ === "string" && __JWT_TOKEN_STORAGE_KEY__) || "medusa_auth_token"
  const token = window.localStorage.getItem(key)
  return token ? { authorization: `Bearer ${token}` } : {}
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "-"
  const time = Date.parse(iso)
  return Number.isFinite(time) ? new Date(time).toLocaleString() : iso
}

/** "in 5 h", "3 min ago": for times the owner reads at a glance. */
export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return ""
  const time = Date.parse(iso)
  if (!Number.isFinite(time)) return ""
  const diff = time - now
  const abs = Math.abs(diff)
  const [value, unit] =
    abs < 60_000
      ? [Math.round(abs / 1000), "s"]
      : abs < 3_600_000
        ? [Math.round(abs / 60_000), "min"]
        : abs < 172_800_000
          ? [Math.round(abs / 3_600_000), "h"]
          : [Math.round(abs / 86_400_000), "days"]
  return diff >= 0 ? `in ${value} ${unit}` : `${value} ${unit} ago`
}

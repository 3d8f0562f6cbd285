import type { WebhookMalformed, WebhookRefusal } from "../../../../modules/refpay"
import { WEBHOOK_SECRET_HEADER } from "../../../../rules/webhook"

/**
 * The webhook part of the admin's REFPAY page: the URL to give the platform, how it authenticates, and warnings
 * drawn from what arrived (or did not). The rules are pure and take the summary and the time, so they are tested
 * as a table; the route gathers the summary.
 */

/** No delivery for this long while references wait: webhooks are probably not set up on the platform. */
export const SILENCE_WARNING_MS = 24 * 60 * 60 * 1000
/** A waiting reference younger than this may still get its PENDING_TRANSACTIONS event: no warning yet. */
export const FIRST_EVENT_GRACE_MS = 15 * 60 * 1000
/** Refusals (and authentic deliveries that were not usable events) this recent are worth a warning. */
export const RECENT_REFUSAL_MS = 24 * 60 * 60 * 1000

export interface WebhookSummary {
  environment: "sandbox" | "production"
  secretConfigured: boolean
  webhookUrl: string
  lastDeliveryAt: Date | null
  waiting: { count: number; oldest_created_at: Date | null }
  refusals: WebhookRefusal[]
  /** Authentic deliveries that were not usable REFPAY events (acknowledged, counted). */
  malformed: WebhookMalformed[]
}

export type WebhookWarningCode =
  "no_secret" | "no_recent_delivery" | "refused_recently" | "malformed_recently" | "url_not_https" | "url_not_public"

export interface WebhookWarning {
  code: WebhookWarningCode
  /** "error": deliveries are being lost or refused now; "warning": probably a set-up problem. */
  level: "error" | "warning"
  /**
   * The values its sentence names (counts, ISO times, a refusal's or a malformed delivery's reason): the admin says
   * it in its language (src/admin/i18n, `refpay.webhooks.warnings.<code>`).
   */
  params: Record<string, string | number | boolean | null>
}

export function webhookWarnings(summary: WebhookSummary, now: Date): WebhookWarning[] {
  const warnings: WebhookWarning[] = []
  if (!summary.secretConfigured) warnings.push({ code: "no_secret", level: "error", params: {} })

  const recent = summary.refusals.filter((r) => now.getTime() - r.last_refused_at.getTime() <= RECENT_REFUSAL_MS)
  if (recent.length > 0) {
    const latest = recent.reduce((a, b) => (a.last_refused_at > b.last_refused_at ? a : b))
    const acceptedSince = summary.lastDeliveryAt !== null && summary.lastDeliveryAt > latest.last_refused_at
    warnings.push({
      code: "refused_recently",
      level: acceptedSince ? "warning" : "error",
      params: {
        count: recent.reduce((n, r) => n + r.refused_count, 0),
        last_at: latest.last_refused_at.toISOString(),
        reason: latest.reason,
        accepted_since: acceptedSince,
      },
    })
  }

  const recentMalformed = summary.malformed.filter(
    (m) => now.getTime() - m.last_received_at.getTime() <= RECENT_REFUSAL_MS
  )
  if (recentMalformed.length > 0) {
    const latest = recentMalformed.reduce((a, b) => (a.last_received_at > b.last_received_at ? a : b))
    warnings.push({
      code: "malformed_recently",
      level: "warning",
      params: {
        count: recentMalformed.reduce((n, m) => n + m.received_count, 0),
        last_at: latest.last_received_at.toISOString(),
        reason: latest.reason,
      },
    })
  }

  const waitingLongEnough =
    summary.waiting.count > 0 &&
    summary.waiting.oldest_created_at !== null &&
    now.getTime() - summary.waiting.oldest_created_at.getTime() >= FIRST_EVENT_GRACE_MS
  const silent =
    summary.lastDeliveryAt === null || now.getTime() - summary.lastDeliveryAt.getTime() >= SILENCE_WARNING_MS
  if (waitingLongEnough && silent) {
    warnings.push({
      code: "no_recent_delivery",
      level: "warning",
      params: { count: summary.waiting.count, last_delivery_at: summary.lastDeliveryAt?.toISOString() ?? null },
    })
  }

  const url = safeUrl(summary.webhookUrl)
  if (summary.environment === "production" && url) {
    if (url.protocol !== "https:") {
      warnings.push({ code: "url_not_https", level: "warning", params: {} })
    }
    if (isLocalHost(url.hostname)) {
      warnings.push({ code: "url_not_public", level: "warning", params: {} })
    }
  }
  return warnings
}

export interface WebhookSetup {
  /**
   * The plugin's webhook route, the one to give the platform: answers at once (200, 401, 503; 400 only when it cannot
   * tell the account).
   */
  url: string
  /** Medusa's own webhook route (processed 5 seconds later, always 200). */
  medusa_url: string
  /** Where the host came from: Medusa's admin.backendUrl (MEDUSA_BACKEND_URL) or this request. */
  url_source: "backend_url" | "request"
  authentication: {
    header: string
    /** HTTP Basic: any user name, the secret as password. */
    basic: string
    secret: "set" | "missing"
    variable: "REFPAY_WEBHOOK_SECRET"
  }
}

/** The shop's public base URL: Medusa's admin.backendUrl when it is absolute, else the request's own host. */
export function shopBaseUrl(
  backendUrl: string | undefined,
  request: { protocol: string; host: string | undefined }
): { base: string; source: WebhookSetup["url_source"] } {
  const configured = safeUrl(backendUrl ?? "")
  if (configured && (configured.protocol === "http:" || configured.protocol === "https:")) {
    return { base: configured.href.replace(/\/+$/, ""), source: "backend_url" }
  }
  return { base: `${request.protocol}://${request.host ?? "localhost"}`, source: "request" }
}

/**
 * The webhook routes of one account: `/hooks/refpay` for a shop's only REFPAY account, `/hooks/refpay/<id>` for
 * each of several (a delivery must name its account, whose secret it carries); Medusa's route names it anyway.
 */
export function webhookSetup(
  base: { base: string; source: WebhookSetup["url_source"] },
  providerId: string,
  severalAccounts: boolean,
  secretConfigured: boolean
): WebhookSetup {
  const id = providerId.replace(/^pp_refpay_/, "")
  return {
    url: severalAccounts ? `${base.base}/hooks/refpay/${id}` : `${base.base}/hooks/refpay`,
    medusa_url: `${base.base}/hooks/payment/${providerId.replace(/^pp_/, "")}`,
    url_source: base.source,
    authentication: {
      header: WEBHOOK_SECRET_HEADER,
      basic: "HTTP Basic authentication with any user name and the secret as the password",
      secret: secretConfigured ? "set" : "missing",
      variable: "REFPAY_WEBHOOK_SECRET",
    },
  }
}

function safeUrl(value: string): URL | null {
  try {
    return new URL(value)
  } catch {
    return null
  }
}

function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "")
  return (
    host === "localhost" || host === "::1" || /^127\./.test(host) || host.endsWith(".localhost") || host === "0.0.0.0"
  )
}

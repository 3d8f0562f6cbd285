import type { SyncDecision } from "./sync-decision"

/** Why a check could not read the platform: the payment is unknown there, or the platform failed to answer. */
export type CheckFailure = "unknown_payment" | "platform_error"

export interface ScheduleSettings {
  pollIntervalMinutes: number
  expiryGraceHours: number
  lateSettlementDays: number
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** The longest a failing session waits between two checks. */
export const MAX_BACKOFF_MS = 6 * HOUR

/** A check is due once per interval (0: on every run of the job). */
export function intervalMs(settings: Pick<ScheduleSettings, "pollIntervalMinutes">): number {
  return settings.pollIntervalMinutes * MINUTE
}

/** How long after its issue a reference may still be paid or settled: validity, grace and late settlement. */
export function checkWindowMs(settings: ScheduleSettings & { expiryDays: number }): number {
  return settings.expiryDays * DAY + settings.expiryGraceHours * HOUR + settings.lateSettlementDays * DAY
}

/**
 * When a session is next checked. A successful check waits one interval; each consecutive failure doubles the wait,
 * up to MAX_BACKOFF_MS, so a session the platform does not know cannot take the place of the others.
 */
export function nextCheckAt(now: Date, settings: ScheduleSettings, failuresSoFar: number, failed: boolean): Date {
  if (!failed) return new Date(now.getTime() + intervalMs(settings))
  const base = Math.max(MINUTE, intervalMs(settings))
  const backoff = Math.min(MAX_BACKOFF_MS, base * 2 ** Math.min(failuresSoFar + 1, 20))
  return new Date(now.getTime() + backoff)
}

/**
 * Until when the poll job keeps looking at a session: an open reference until it is past validity, grace and the
 * late-settlement window; a cancelled or expired one until validity plus the settlement window (a bank may still
 * settle a payment made in time); nothing once the payment is captured and reconciled.
 */
export function checkUntil(
  action: SyncDecision["kind"] | CheckFailure,
  captured: boolean,
  expiresAt: Date,
  settings: ScheduleSettings
): Date | null {
  if (captured || FINISHED.has(action)) return null
  return new Date(expiresAt.getTime() + settings.expiryGraceHours * HOUR + settings.lateSettlementDays * DAY)
}

/** After these the payment is captured and Medusa's record matches the platform's: nothing left to check. */
const FINISHED = new Set<string>(["capture", "capture_late", "capture_refunded", "record_refund", "flag_late"])

/**
 * Whether a check's outcome leaves the reference waiting for the customer (its session still pending authorisation):
 * nothing changed, the platform could not be read, or it reported another amount (never captured). Everything else
 * captured the payment or closed the reference. One row per outcome; the compiler insists on every one.
 */
const LEAVES_REFERENCE_WAITING: Record<SyncDecision["kind"] | CheckFailure, boolean> = {
  record_check: true,
  unknown_payment: true,
  platform_error: true,
  amount_mismatch: true,
  none: false,
  capture: false,
  capture_late: false,
  capture_refunded: false,
  record_refund: false,
  flag_late: false,
  cancel_order: false,
  mark_canceled: false,
  cancel_reference: false,
  expire: false,
  reissue: false,
}

/** The check outcomes after which the reference still waits (a check not made yet, null, waits too). */
export const WAITING_OUTCOMES: readonly string[] = Object.entries(LEAVES_REFERENCE_WAITING)
  .filter(([, waiting]) => waiting)
  .map(([outcome]) => outcome)

/** A date the database can store: null for an invalid one (a platform's unreadable expiry). */
export function validDate(date: Date): Date | null {
  return Number.isFinite(date.getTime()) ? date : null
}

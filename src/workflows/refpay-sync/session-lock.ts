/** The lock every path that changes a REFPAY session holds: webhooks, the poll job, "check now", order cancellation. */
export function refpaySessionLockKey(sessionId: string): string {
  return `refpay:session:${sessionId}`
}

/** How long a path waits for a session's lock before it gives up (a webhook is then answered for a retry). */
export const SESSION_LOCK_WAIT_SECONDS = 30

/**
 * The lease of the sync workflow's session lock (core-flows' acquireLockStep, which does not renew it). Far longer
 * than a sync takes (a few platform calls, each with its own timeout), so it never lapses while one runs, and short
 * enough that a server killed mid-sync holds the session only a few minutes: the poll job's next ticks finish it.
 */
export const SYNC_LOCK_LEASE_SECONDS = 300

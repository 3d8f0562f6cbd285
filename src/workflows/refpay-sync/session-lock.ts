/** The lock every path that changes a REFPAY session holds: webhooks, the poll job, "check now", order cancellation. */
export function refpaySessionLockKey(sessionId: string): string {
  return `refpay:session:${sessionId}`
}

/** How long a path waits for a session's lock before it gives up (a webhook is then answered for a retry). */
export const SESSION_LOCK_WAIT_SECONDS = 30

/**
 * The lease of the sync workflow's session lock: Medusa's locking default (what `execute` uses), so a server killed
 * mid-sync holds its sessions at most a minute. A running sync keeps it renewed (keepLeaseStep, locks/leased-lock.ts).
 */
export const SYNC_LOCK_LEASE_SECONDS = 60

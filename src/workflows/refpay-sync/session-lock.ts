import { shopWideSetting } from "../../providers/refpay/options"

/** The lock every path that changes a REFPAY session holds: webhooks, the poll job, "check now", order cancellation. */
export function refpaySessionLockKey(sessionId: string): string {
  return `refpay:session:${sessionId}`
}

/** How long a path waits for a session's lock before it gives up (a webhook is then answered for a retry). */
export const SESSION_LOCK_WAIT_SECONDS = 30

/**
 * The lease of the sync's session lock (REFPAY_LOCK_LEASE_SECONDS; a minute by default, Medusa's locking default),
 * so a server killed mid-sync holds its sessions at most that long. A running sync keeps it renewed
 * (src/sync/lock-lease.ts).
 */
export function syncLockLeaseSeconds(env: NodeJS.ProcessEnv = process.env): number {
  return shopWideSetting("lockLeaseSeconds", env)
}

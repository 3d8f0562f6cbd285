// The poll job's tick lock, in a file of its own (no imports) so tests and the bench can name it without loading the job.

/** The locking-module key every server's poll tick takes: ticks never overlap, on one server or several. */
export const POLL_LOCK = "refpay:poll-tick"
/**
 * The tick lock's lease. Medusa's locking module renews it every third of it while the tick runs, so a long tick
 * keeps its lock; a server that dies mid-tick holds it at most this long (a 10-minute lock once left every server
 * skipping ten ticks after a crash). Under a minute, so the lock of a tick killed at its start has lapsed by the next.
 */
export const TICK_LEASE_SECONDS = 30

// The poll job's run lock, in a file of its own (no imports) so tests and the bench can name it without loading the job.

/** The locking-module key every server's poll run takes: runs never overlap, on one server or several. */
// The key's text is older than the name "poll run": kept, so the servers of two versions share one lock during an upgrade.
export const POLL_LOCK = "refpay:poll-tick"
/**
 * The run lock's lease. Medusa's locking module renews it every third of it while the run goes on, so a long run
 * keeps its lock; a server that dies mid-run holds it at most this long (a 10-minute lock once left every server
 * skipping ten runs after a crash). Under a minute, so the lock of a run killed at its start has lapsed by the next.
 */
export const POLL_RUN_LEASE_SECONDS = 30

/**
 * A checkout whose completion was interrupted: Medusa's cart completion creates the order first and authorises the
 * payment session last, so a server that dies between the two (SIGKILL, out of memory, a redeployment) leaves an
 * order whose REFPAY session is still `pending`, with no reference in its data, while the platform may already hold
 * the reference it created for that session. The customer cannot see a reference, and nothing checks it.
 *
 * The poll job resumes such a session by authorising it again: the identifiers are derived from the session, so the
 * platform replays the reference it created (or creates it once), and the session becomes `pending_authorization`
 * with the reference the customer then sees. It waits `RESUME_AFTER_MS` after the session's last change so a
 * completion still running is not raced.
 */
export const RESUME_AFTER_MS = 60_000

export interface SessionAtRest {
  status: string
  /** The order the session's payment collection belongs to, if any. */
  orderId: string | null
  updatedAt: Date
  /** A cart completion started the session (its validate hook marked it); a store request on a placed order's collection did not. */
  completionStarted: boolean
}

export function isInterruptedCompletion(session: SessionAtRest, now: Date): boolean {
  return (
    session.status === "pending" &&
    session.completionStarted &&
    session.orderId !== null &&
    now.getTime() - session.updatedAt.getTime() >= RESUME_AFTER_MS
  )
}

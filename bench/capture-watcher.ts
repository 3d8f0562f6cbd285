import { performance } from "node:perf_hooks"
import type { Client } from "pg"

/**
 * Tells when payment sessions read captured, with one query for every session being waited on (so sixteen or a
 * hundred waiters cost the database what one does): Medusa records a capture on the session's payment
 * (`payment.captured_at`), which is what the order's payment status is computed from.
 */
export class CaptureWatcher {
  private readonly waiting = new Map<
    string,
    { resolve: (at: number) => void; reject: (error: Error) => void; deadline: number }
  >()
  private running = false

  constructor(
    private readonly db: Client,
    private readonly intervalMs = 5
  ) {}

  /** Resolves with performance.now() at the first read that finds the session captured. */
  captured(sessionId: string, timeoutMs = 60_000): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.set(sessionId, { resolve, reject, deadline: performance.now() + timeoutMs })
      if (!this.running) void this.loop()
    })
  }

  private async loop(): Promise<void> {
    this.running = true
    try {
      while (this.waiting.size > 0) {
        const ids = [...this.waiting.keys()]
        const { rows } = await this.db.query<{ payment_session_id: string }>(
          "select payment_session_id from payment where payment_session_id = any($1) and captured_at is not null and deleted_at is null",
          [ids]
        )
        const at = performance.now()
        for (const row of rows) {
          this.waiting.get(row.payment_session_id)?.resolve(at)
          this.waiting.delete(row.payment_session_id)
        }
        for (const [id, waiter] of this.waiting) {
          if (at > waiter.deadline) {
            waiter.reject(new Error(`payment session ${id} was not captured in time`))
            this.waiting.delete(id)
          }
        }
        if (this.waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, this.intervalMs))
      }
    } catch (error) {
      for (const waiter of this.waiting.values()) waiter.reject(error as Error)
      this.waiting.clear()
    } finally {
      this.running = false
    }
  }
}

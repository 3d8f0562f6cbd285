/**
 * A sliding-window limit per key (an admin user), kept in this process's memory: enough to stop a button from
 * hammering the platform's token service. With several servers each keeps its own window.
 */
export interface RateLimitDecision {
  allowed: boolean
  /** Seconds until the next call is allowed; 0 when allowed. */
  retryAfterSeconds: number
  remaining: number
}

export class SlidingWindowLimit {
  private readonly calls = new Map<string, number[]>()

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now
  ) {}

  /** Counts a call for `key` when allowed; a refused call is not counted. */
  take(key: string): RateLimitDecision {
    const now = this.now()
    const recent = (this.calls.get(key) ?? []).filter((at) => now - at < this.windowMs)
    if (recent.length >= this.limit) {
      this.calls.set(key, recent)
      const retryAfterMs = recent[0]! + this.windowMs - now
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)), remaining: 0 }
    }
    recent.push(now)
    this.calls.set(key, recent)
    this.forgetIdle(now)
    return { allowed: true, retryAfterSeconds: 0, remaining: this.limit - recent.length }
  }

  /** Drops keys with no call in the window, so the map does not grow with every admin who ever clicked. */
  private forgetIdle(now: number): void {
    if (this.calls.size < 100) return
    for (const [key, times] of this.calls) {
      if (times.every((at) => now - at >= this.windowMs)) this.calls.delete(key)
    }
  }
}

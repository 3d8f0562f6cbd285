/**
 * The sandbox's notion of "now": real time plus an offset that tests move forward to expire tokens and
 * references without waiting. Everything time-dependent (token exp, expires_at, timestamps) reads it.
 */
export class SandboxClock {
  private offsetMs = 0

  now(): number {
    return Date.now() + this.offsetMs
  }

  nowIso(): string {
    return new Date(this.now()).toISOString()
  }

  get offset(): number {
    return this.offsetMs
  }

  advance(ms: number): void {
    this.offsetMs += ms
  }

  /** Jump to an absolute instant (may be in the past). */
  set(epochMs: number): void {
    this.offsetMs = epochMs - Date.now()
  }

  reset(): void {
    this.offsetMs = 0
  }
}

/**
 * A group of pending timers that can be cancelled at once, so close() and reset() leave nothing behind.
 * Timers are unref'd: the listening server, not a pending retry, is what keeps a CLI process alive, and a
 * test that forgets close() is not held open by a webhook backoff.
 */
export class TimerGroup {
  private readonly pending = new Set<NodeJS.Timeout>()

  after(ms: number, run: () => void): void {
    const handle = setTimeout(() => {
      this.pending.delete(handle)
      run()
    }, ms)
    handle.unref()
    this.pending.add(handle)
  }

  /** A promise for `ms` from now; it never settles if the group is cleared first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve))
  }

  clear(): void {
    for (const handle of this.pending) clearTimeout(handle)
    this.pending.clear()
  }

  get size(): number {
    return this.pending.size
  }
}

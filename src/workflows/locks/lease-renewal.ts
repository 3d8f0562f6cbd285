import type { ILockingModule } from "@medusajs/framework/types"

/**
 * Keeps a lock's lease alive for its owner until the returned `stop` is called. Core-flows' `acquireLockStep` takes
 * a lock with a fixed lease and never renews it. Renewed every third of the lease by taking it again as the same
 * owner, which Medusa's locking providers answer by extending that owner's lease; a renewal that fails (another owner
 * holds it: its lease lapsed and was taken) is ignored, the operation's own checks decide. `stop` waits for a renewal
 * in flight, so that a release after it is not undone by it.
 */
export function renewLeaseUntilStopped(
  locking: ILockingModule,
  lock: { key: string | string[]; ownerId: string; leaseSeconds: number }
): () => Promise<void> {
  let renewal: Promise<unknown> = Promise.resolve()
  const timer = setInterval(
    () => {
      renewal = locking.acquire(lock.key, { ownerId: lock.ownerId, expire: lock.leaseSeconds }).catch(() => undefined)
    },
    (lock.leaseSeconds * 1_000) / 3
  )
  timer.unref()
  return async () => {
    clearInterval(timer)
    await renewal
  }
}

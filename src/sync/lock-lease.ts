import type { ILockingModule, Logger } from "@medusajs/framework/types"
import { renewLeaseUntilStopped } from "../workflows/locks/lease-renewal"

/**
 * Keeps a lock that a workflow's `acquireLockStep` takes alive while the workflow runs. Core-flows' lock step takes
 * it with a fixed lease and never renews it (the locking module's `execute` does, but no step can run around the
 * rest of its workflow), and a sync can outlast a lease short enough to free a dead server's sessions promptly (each
 * platform call may take its timeouts and retries). Renewed by taking it again as the same owner, which the locking
 * module answers by extending its owner's lease; whatever a renewal took after the workflow's release is let go.
 */
export async function whileLeaseRenewed<T>(
  lock: { locking: ILockingModule; key: string; ownerId: string; leaseSeconds: number; logger: Logger },
  run: () => Promise<T>
): Promise<T> {
  const { locking, key, ownerId, leaseSeconds, logger } = lock
  const stopRenewing = renewLeaseUntilStopped(locking, { key, ownerId, leaseSeconds })
  try {
    return await run()
  } finally {
    await stopRenewing()
    await locking
      .release(key, { ownerId })
      .catch((error: Error) => logger.warn(`REFPAY: lock ${key} not released (${error.message}); its lease frees it`))
  }
}

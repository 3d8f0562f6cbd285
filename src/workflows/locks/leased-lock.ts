import { randomUUID } from "node:crypto"
import { setTimeout as sleep } from "node:timers/promises"
import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { renewLeaseUntilStopped } from "./lease-renewal"
import { SESSION_LOCK_WAIT_SECONDS, SYNC_LOCK_LEASE_SECONDS } from "../refpay-sync/session-lock"

/** A lock a workflow holds: its key and the owner this run took it as. */
export interface LeasedLock {
  key: string
  ownerId: string
}

/** The renewals this process runs for the leased locks its workflows hold, by owner and key. */
const renewals = new Map<string, () => Promise<void>>()
const renewalOf = (lock: LeasedLock) => `${lock.ownerId}\u0000${lock.key}`

/** How often a waiting acquisition tries again, as core-flows' `acquireLockStep` does. */
const RETRY_MS = 300

/**
 * Core-flows' `acquireLockStep` with two differences a money operation needs: the lease is renewed while the lock
 * is held (the operation may call the platform for longer than one lease, and a second reference must not be issued
 * meanwhile), and it runs in a sub-workflow too (core-flows' step is skipped there unless told otherwise), so a
 * workflow run as a step of another still takes its own lock. Released by `releaseLeasedLockStep`, or by this step's
 * compensation when a later step fails; a server that dies while holding it leaves the lease to lapse. It waits and
 * leases as the session lock does unless told otherwise.
 */
export const acquireLeasedLockStep = createStep(
  "refpay-acquire-leased-lock",
  async (input: { key: string; waitSeconds?: number; leaseSeconds?: number }, { container }) => {
    const { waitSeconds = SESSION_LOCK_WAIT_SECONDS, leaseSeconds = SYNC_LOCK_LEASE_SECONDS } = input
    const locking = container.resolve<ILockingModule>(Modules.LOCKING)
    const lock: LeasedLock = { key: input.key, ownerId: `refpay:${randomUUID()}` }
    const giveUpAt = Date.now() + waitSeconds * 1_000
    for (;;) {
      try {
        await locking.acquire(lock.key, { ownerId: lock.ownerId, expire: leaseSeconds })
        break
      } catch (error) {
        if (Date.now() >= giveUpAt) throw error
        await sleep(RETRY_MS)
      }
    }
    renewals.set(renewalOf(lock), renewLeaseUntilStopped(locking, { ...lock, leaseSeconds }))
    return new StepResponse(lock, lock)
  },
  async (lock, { container }) => {
    if (lock) await letGo(container, lock)
  }
)

/** Ends what `acquireLeasedLockStep` took: the lease's renewal, then the lock. */
export const releaseLeasedLockStep = createStep(
  "refpay-release-leased-lock",
  async (lock: LeasedLock, { container }) => {
    await letGo(container, lock)
    return new StepResponse(true)
  }
)

async function letGo(container: MedusaContainer, lock: LeasedLock): Promise<void> {
  const stop = renewals.get(renewalOf(lock))
  renewals.delete(renewalOf(lock))
  await stop?.()
  await container.resolve<ILockingModule>(Modules.LOCKING).release(lock.key, { ownerId: lock.ownerId })
}

import { randomUUID } from "node:crypto"
import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse, transform, type WorkflowData } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { renewLeaseUntilStopped } from "./lease-renewal"
import { SESSION_LOCK_WAIT_SECONDS, SYNC_LOCK_LEASE_SECONDS } from "../refpay-sync/session-lock"

/** A lock a workflow run holds: its key (or keys), the owner this run took it as, and its lease in seconds. */
export interface LeasedLock {
  key: string | string[]
  ownerId: string
  ttl: number
}

interface LockRequest {
  key: string | string[]
  /** How long to wait for it; the session lock's wait unless told. */
  waitSeconds?: number
  /** Its lease; the session lock's lease unless told. */
  leaseSeconds?: number
}

/** The renewals this process runs for the leased locks its workflows hold, by owner. */
const renewals = new Map<string, () => Promise<void>>()

/**
 * The one way the plugin's workflows take a lock: core-flows' `acquireLockStep` (also in a workflow run as a step of
 * another, so a sub-workflow still takes its own lock), then `keepLeaseStep`, which renews the lease while the lock
 * is held: an operation that calls the platform (timeouts and retries) can outlast a lease short enough to free a
 * dead server's locks promptly. A server that dies while holding it stops renewing, and the lease lapses. End the
 * workflow with `releaseLeasedLock`; a failing step's compensation stops the renewal and releases the lock.
 */
export function acquireLeasedLock(request: WorkflowData<LockRequest>): WorkflowData<LeasedLock> {
  // Every value here goes to a step or transform as it is, never inside an object literal: the composer resolves a
  // workflow value nested in an object to undefined when that value has a `key` property, and core-flows' lock step
  // then takes no lock at all (leased-lock.unit.spec.ts holds this).
  const lock = transform(request, (request) => ({
    key: request.key,
    ownerId: `refpay:${randomUUID()}`,
    timeout: request.waitSeconds ?? SESSION_LOCK_WAIT_SECONDS,
    ttl: request.leaseSeconds ?? SYNC_LOCK_LEASE_SECONDS,
    executeOnSubWorkflow: true,
  }))
  acquireLockStep(lock)
  return keepLeaseStep(lock)
}

/** Ends what `acquireLeasedLock` took: the lease's renewal, then core-flows' `releaseLockStep`. */
export function releaseLeasedLock(lock: WorkflowData<LeasedLock>): void {
  releaseLockStep(endLeaseStep(lock))
}

/** Renews the lease of a lock this run holds until `endLeaseStep` (or this step's compensation) stops it. */
export const keepLeaseStep = createStep(
  "refpay-keep-lease",
  async (lock: LeasedLock, { container }) => {
    const held: LeasedLock = { key: lock.key, ownerId: lock.ownerId, ttl: lock.ttl }
    renewals.set(held.ownerId, renewLeaseUntilStopped(locking(container), { ...held, leaseSeconds: held.ttl }))
    return new StepResponse(held, held.ownerId)
  },
  async (ownerId) => {
    if (ownerId) await stopRenewing(ownerId)
  }
)

/** Stops the renewal, waiting for one in flight, so that the release after it is not undone by it. */
export const endLeaseStep = createStep("refpay-end-lease", async (lock: LeasedLock) => {
  await stopRenewing(lock.ownerId)
  return new StepResponse({ key: lock.key, ownerId: lock.ownerId, executeOnSubWorkflow: true })
})

async function stopRenewing(ownerId: string): Promise<void> {
  const stop = renewals.get(ownerId)
  renewals.delete(ownerId)
  await stop?.()
}

function locking(container: MedusaContainer): ILockingModule {
  return container.resolve<ILockingModule>(Modules.LOCKING)
}

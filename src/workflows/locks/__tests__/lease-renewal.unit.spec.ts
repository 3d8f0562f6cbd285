import type { ILockingModule } from "@medusajs/framework/types"
import { renewLeaseUntilStopped } from "../lease-renewal"

/** Owner-checked leases, as Medusa's locking providers keep them: taking one's own lock again extends it. */
function leases(now: () => number) {
  const held = new Map<string, { ownerId: string; until: number }>()
  const calls: string[] = []
  const locking = {
    async acquire(key: string, { ownerId, expire }: { ownerId: string; expire: number }) {
      calls.push(`acquire ${ownerId}`)
      const lock = held.get(key)
      if (lock && lock.until > now() && lock.ownerId !== ownerId)
        throw new Error(`Failed to acquire lock for key "${key}"`)
      held.set(key, { ownerId, until: now() + expire * 1_000 })
    },
    async release(key: string, { ownerId }: { ownerId: string }) {
      calls.push(`release ${ownerId}`)
      if (held.get(key)?.ownerId === ownerId) held.delete(key)
      return true
    },
  }
  return { locking: locking as unknown as ILockingModule, held, calls }
}

describe("a workflow's lock kept alive while it runs (keepLeaseStep, endLeaseStep)", () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }))
  afterEach(() => jest.useRealTimers())

  it("extends the lease every third of it, so a run longer than the lease keeps the lock", async () => {
    const { locking, held } = leases(() => Date.now())
    await locking.acquire("s", { ownerId: "me", expire: 60 }) // acquireLockStep
    const stop = renewLeaseUntilStopped(locking, { key: "s", ownerId: "me", leaseSeconds: 60 })
    await jest.advanceTimersByTimeAsync(150_000)
    expect(held.get("s")).toEqual({ ownerId: "me", until: expect.any(Number) })
    expect(held.get("s")!.until).toBeGreaterThan(Date.now())
    await expect(locking.acquire("s", { ownerId: "other", expire: 60 })).rejects.toThrow(/Failed to acquire/)
    await stop()
    await locking.release("s", { ownerId: "me" }) // releaseLockStep
    expect(held.has("s")).toBe(false)
  })

  it("waits for a renewal in flight when stopped, so the release after it stands, and renews no more", async () => {
    const { locking, held, calls } = leases(() => Date.now())
    await locking.acquire("s", { ownerId: "me", expire: 60 })
    const stop = renewLeaseUntilStopped(locking, { key: "s", ownerId: "me", leaseSeconds: 60 })
    await jest.advanceTimersByTimeAsync(20_000) // a renewal fires
    await stop()
    await locking.release("s", { ownerId: "me" })
    expect(held.has("s")).toBe(false)
    expect(calls.at(-1)).toBe("release me")
    const count = calls.length
    await jest.advanceTimersByTimeAsync(120_000)
    expect(calls.length).toBe(count)
    expect(held.has("s")).toBe(false)
  })

  it("never renews another owner's lock", async () => {
    const { locking, held } = leases(() => Date.now())
    await locking.acquire("s", { ownerId: "other", expire: 600 })
    const stop = renewLeaseUntilStopped(locking, { key: "s", ownerId: "me", leaseSeconds: 60 })
    await jest.advanceTimersByTimeAsync(40_000)
    await stop()
    expect(held.get("s")!.ownerId).toBe("other")
  })
})

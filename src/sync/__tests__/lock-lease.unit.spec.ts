import type { ILockingModule, Logger } from "@medusajs/framework/types"
import { whileLeaseRenewed } from "../lock-lease"

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

const logger = { warn: jest.fn() } as unknown as Logger

describe("a sync's session lock kept alive while its workflow runs", () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }))
  afterEach(() => jest.useRealTimers())

  it("extends the lease every third of it, so a sync longer than the lease keeps the session", async () => {
    const { locking, held } = leases(() => Date.now())
    let finish!: () => void
    const running = whileLeaseRenewed({ locking, key: "s", ownerId: "me", leaseSeconds: 60, logger }, async () => {
      await locking.acquire("s", { ownerId: "me", expire: 60 }) // the workflow's lock step
      await new Promise<void>((resolve) => (finish = resolve))
      return "done"
    })
    await jest.advanceTimersByTimeAsync(150_000)
    expect(held.get("s")).toEqual({ ownerId: "me", until: expect.any(Number) })
    expect(held.get("s")!.until).toBeGreaterThan(Date.now())
    await expect(locking.acquire("s", { ownerId: "other", expire: 60 })).rejects.toThrow(/Failed to acquire/)
    finish()
    await expect(running).resolves.toBe("done")
    expect(held.has("s")).toBe(false)
  })

  it("lets go of a lock a renewal took again after the workflow released it, and stops renewing", async () => {
    const { locking, held, calls } = leases(() => Date.now())
    await whileLeaseRenewed({ locking, key: "s", ownerId: "me", leaseSeconds: 60, logger }, async () => {
      await locking.acquire("s", { ownerId: "me", expire: 60 })
      await locking.release("s", { ownerId: "me" }) // the workflow's release step
      await jest.advanceTimersByTimeAsync(20_000) // a renewal lands after it
    })
    expect(held.has("s")).toBe(false)
    expect(calls.at(-1)).toBe("release me")
    const count = calls.length
    await jest.advanceTimersByTimeAsync(120_000)
    expect(calls.length).toBe(count)
  })

  it("never renews another owner's lock, and a failed run still ends the renewals", async () => {
    const { locking, held } = leases(() => Date.now())
    await locking.acquire("s", { ownerId: "other", expire: 600 })
    const failing = whileLeaseRenewed({ locking, key: "s", ownerId: "me", leaseSeconds: 60, logger }, async () => {
      await jest.advanceTimersByTimeAsync(40_000)
      throw new Error("the platform is down")
    })
    await expect(failing).rejects.toThrow("the platform is down")
    expect(held.get("s")!.ownerId).toBe("other")
  })
})

import { asValue } from "@medusajs/framework/awilix"
import { createMedusaContainer, Modules } from "@medusajs/framework/utils"
import {
  createStep,
  createWorkflow,
  StepResponse,
  transform,
  WorkflowResponse,
} from "@medusajs/framework/workflows-sdk"
import { acquireLeasedLock, releaseLeasedLock } from "../leased-lock"

/** Medusa's locking module as far as these steps use it: what was asked of it, in order. */
function recordingLocking() {
  const calls: string[] = []
  const locking = {
    async acquire(keys: string | string[], { ownerId, expire }: { ownerId: string; expire: number }) {
      calls.push(`acquire ${[keys].flat().join("+")} ${ownerId.slice(0, 7)} ${expire}`)
    },
    async release(keys: string | string[], { ownerId }: { ownerId: string }) {
      calls.push(`release ${[keys].flat().join("+")} ${ownerId.slice(0, 7)}`)
      return true
    },
  }
  const container = createMedusaContainer()
  container.register(Modules.LOCKING, asValue(locking))
  return { calls, container }
}

const work = createStep("leased-lock-test-work", async (input: { fail: boolean }) => {
  if (input.fail) throw new Error("a later step failed")
  return new StepResponse(true)
})

const locked = createWorkflow("leased-lock-test-locked", (input: { ids: string[]; fail: boolean }) => {
  const lock = acquireLeasedLock(transform({ input }, ({ input }) => ({ key: input.ids.map((id) => `k:${id}`) })))
  work(input)
  releaseLeasedLock(lock)
  return new WorkflowResponse(true)
})

const outer = createWorkflow("leased-lock-test-outer", (input: { ids: string[]; fail: boolean }) => {
  locked.runAsStep({ input })
  return new WorkflowResponse(true)
})

describe("a lock taken by acquireLeasedLock (core-flows' lock steps)", () => {
  it("is acquired with the keys, lease and one owner, and released by that owner at the end", async () => {
    const { calls, container } = recordingLocking()
    await locked(container).run({ input: { ids: ["a", "b"], fail: false } })
    expect(calls).toEqual(["acquire k:a+k:b refpay: 60", "release k:a+k:b refpay:"])
  })

  it("is taken too when its workflow runs as a step of another", async () => {
    const { calls, container } = recordingLocking()
    await outer(container).run({ input: { ids: ["a"], fail: false } })
    expect(calls).toEqual(["acquire k:a refpay: 60", "release k:a refpay:"])
  })

  it("is released by the compensation when a later step fails", async () => {
    const { calls, container } = recordingLocking()
    await expect(locked(container).run({ input: { ids: ["a"], fail: true } })).rejects.toBeDefined()
    expect(calls).toEqual(["acquire k:a refpay: 60", "release k:a refpay:"])
  })
})

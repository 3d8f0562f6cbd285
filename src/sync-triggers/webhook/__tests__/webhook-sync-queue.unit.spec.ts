import { WebhookSyncQueue } from "../webhook-sync-queue"

/** A sync the test finishes by hand. */
function heldSync(log: string[], name: string) {
  let finish!: () => void
  let fail!: (error: Error) => void
  const done = new Promise<string>((resolve, reject) => {
    finish = () => resolve(name)
    fail = reject
  })
  return {
    start: () => {
      log.push(`start ${name}`)
      return done
    },
    finish: async () => {
      finish()
      await flush()
    },
    fail: async () => {
      fail(new Error(`${name} failed`))
      await flush()
    },
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

describe("WebhookSyncQueue", () => {
  it("runs at most its limit at once, in arrival order, each settling as its sync does", async () => {
    const log: string[] = []
    const queue = new WebhookSyncQueue(2)
    const syncs = ["a", "b", "c", "d"].map((name) => heldSync(log, name))
    const results = syncs.map((sync) => queue.run(sync.start).catch((error: Error) => error.message))
    await flush()
    expect(log).toEqual(["start a", "start b"])
    expect(queue.queued).toBe(2)

    await syncs[1]!.finish()
    expect(log).toEqual(["start a", "start b", "start c"])
    await syncs[0]!.fail()
    expect(log).toEqual(["start a", "start b", "start c", "start d"])
    await syncs[2]!.finish()
    await syncs[3]!.finish()

    await expect(Promise.all(results)).resolves.toEqual(["a failed", "b", "c", "d"])
    expect(queue.queued).toBe(0)
  })

  it("starts no sync beyond the first while a delivery is being recorded, and the waiting ones once it is", async () => {
    const log: string[] = []
    const queue = new WebhookSyncQueue(4)
    let recorded!: () => void
    const recording = queue.recordingDelivery(
      () =>
        new Promise<void>((resolve) => {
          recorded = resolve
        })
    )
    const syncs = ["a", "b", "c"].map((name) => heldSync(log, name))
    syncs.forEach((sync) => void queue.run(sync.start))
    await flush()
    // One sync always runs, so a steady stream of deliveries cannot starve the syncs.
    expect(log).toEqual(["start a"])

    recorded()
    await recording
    await flush()
    expect(log).toEqual(["start a", "start b", "start c"])
    for (const sync of syncs) await sync.finish()
  })

  it("counts a recording that fails as done", async () => {
    const log: string[] = []
    const queue = new WebhookSyncQueue(4)
    const first = heldSync(log, "a")
    void queue.run(first.start)
    await expect(queue.recordingDelivery(() => Promise.reject(new Error("database down")))).rejects.toThrow(
      "database down"
    )
    const second = heldSync(log, "b")
    void queue.run(second.start)
    await flush()
    expect(log).toEqual(["start a", "start b"])
    await first.finish()
    await second.finish()
  })
})

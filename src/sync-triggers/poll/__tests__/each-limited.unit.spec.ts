import { eachLimited } from "../each-limited"

describe("eachLimited", () => {
  it("keeps at most `limit` tasks in flight and returns the results in the items' order", async () => {
    let inFlight = 0
    let most = 0
    const releases: (() => void)[] = []
    const run = eachLimited([1, 2, 3, 4, 5], 2, async (n) => {
      most = Math.max(most, ++inFlight)
      await new Promise<void>((resolve) => releases.push(resolve))
      inFlight--
      return n * 10
    })
    // Release the held tasks one at a time, last started first: the order of results still follows the items.
    while (releases.length > 0 || inFlight > 0) {
      await new Promise((resolve) => setImmediate(resolve))
      releases.pop()?.()
    }
    expect(await run).toEqual([10, 20, 30, 40, 50])
    expect(most).toBe(2)
  })

  it("does nothing for no items", async () => {
    expect(await eachLimited([], 4, async () => 1)).toEqual([])
  })
})

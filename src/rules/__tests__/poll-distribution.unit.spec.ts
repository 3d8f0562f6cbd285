import { isSharedEventBus, distributesPollChecks, type PollDistributionSetting } from "../poll-distribution"

describe("where a poll run's checks are made (REFPAY_POLL_SPREAD)", () => {
  it.each<[PollDistributionSetting, boolean, boolean]>([
    ["auto", true, true],
    ["auto", false, false],
    ["on", true, true],
    ["on", false, true],
    ["off", true, false],
    ["off", false, false],
  ])("%s with a shared event bus %s: distributed %s", (setting, shared, distributed) => {
    expect(distributesPollChecks(setting, shared)).toBe(distributed)
  })

  it.each([
    ["@medusajs/medusa/event-bus-redis", true],
    ["@medusajs/event-bus-redis", true],
    ["@medusajs/medusa/event-bus-local", false],
    ["@medusajs/event-bus-local", false],
    ["./src/modules/my-event-bus-redis-like", false],
    [undefined, false],
  ])("knows Medusa's Redis event bus by its module (%s: %s)", (resolve, shared) => {
    expect(isSharedEventBus(resolve)).toBe(shared)
  })
})

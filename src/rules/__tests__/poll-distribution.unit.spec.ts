import { isSharedEventBus, spreadsPollChecks, type PollSpreadSetting } from "../poll-spread"

describe("where a poll tick's checks run (REFPAY_POLL_SPREAD)", () => {
  it.each<[PollSpreadSetting, boolean, boolean]>([
    ["auto", true, true],
    ["auto", false, false],
    ["on", true, true],
    ["on", false, true],
    ["off", true, false],
    ["off", false, false],
  ])("%s with a shared event bus %s: spread %s", (setting, shared, spread) => {
    expect(spreadsPollChecks(setting, shared)).toBe(spread)
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

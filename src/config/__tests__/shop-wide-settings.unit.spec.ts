import { POLL_EVERY_MINUTE, pollJobSchedule, resolveOptions, shopWideSetting } from ".."

// Settings of the whole shop (src/config/shop-wide-settings.ts): read from their variable alone, before any provider
// exists, and refused when an account's option or an account's variable says otherwise.
const base = { clientId: "fake-client-id", clientSecret: "obviously-fake-secret-value" }

describe("how often the poll job runs (pollEverySeconds, REFPAY_POLL_EVERY_SECONDS)", () => {
  it("is the cron on every minute by default, exactly as before the option existed", () => {
    expect(POLL_EVERY_MINUTE).toBe("* * * * *")
    expect(pollJobSchedule({})).toBe("* * * * *")
    expect(pollJobSchedule({ REFPAY_POLL_EVERY_SECONDS: "" })).toBe("* * * * *")
    expect(pollJobSchedule({ REFPAY_POLL_EVERY_SECONDS: "60" })).toBe("* * * * *")
    expect(resolveOptions(base, {}).pollEverySeconds).toBe(60)
  })

  it("is Medusa's { interval } in milliseconds below a minute", () => {
    expect(pollJobSchedule({ REFPAY_POLL_EVERY_SECONDS: "5" })).toEqual({ interval: 5_000 })
    expect(pollJobSchedule({ REFPAY_POLL_EVERY_SECONDS: " 1 " })).toEqual({ interval: 1_000 })
    expect(resolveOptions(base, { REFPAY_POLL_EVERY_SECONDS: "5" }).pollEverySeconds).toBe(5)
  })

  it("refuses what is not a whole number of seconds from 1 to 60, naming the variable", () => {
    for (const value of ["0", "61", "2.5", "-5", "soon"]) {
      expect(() => pollJobSchedule({ REFPAY_POLL_EVERY_SECONDS: value })).toThrow(
        /pollEverySeconds \(REFPAY_POLL_EVERY_SECONDS\): set REFPAY_POLL_EVERY_SECONDS to a whole number of seconds from 1 to 60/
      )
      expect(() => resolveOptions(base, { REFPAY_POLL_EVERY_SECONDS: value })).toThrow(
        /pollEverySeconds \(REFPAY_POLL_EVERY_SECONDS\)/
      )
    }
  })

  it("is read from REFPAY_POLL_EVERY_SECONDS only: a provider option or an account's variable that disagrees stops the boot", () => {
    expect(() => resolveOptions({ ...base, pollEverySeconds: 5 }, {})).toThrow(
      /pollEverySeconds is 5 here but the shop runs with 60.*set REFPAY_POLL_EVERY_SECONDS/
    )
    expect(() => resolveOptions({ account: "porto", ...base }, { REFPAY_PORTO_POLL_EVERY_SECONDS: "5" })).toThrow(
      /REFPAY_POLL_EVERY_SECONDS only/
    )
    // Saying the same as the variable is harmless.
    expect(resolveOptions({ ...base, pollEverySeconds: 5 }, { REFPAY_POLL_EVERY_SECONDS: "5" }).pollEverySeconds).toBe(
      5
    )
  })

  it("is the poll job's schedule, read from the environment when Medusa loads the job module", () => {
    const saved = process.env.REFPAY_POLL_EVERY_SECONDS
    const loadJob = () => {
      let config: unknown
      jest.isolateModules(() => {
        // The run itself (and Medusa's workflows behind it) is not what this reads.
        jest.doMock("../../sync-triggers/poll/poll", () => ({ pollRefpayPayments: jest.fn() }))
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        config = require("../../jobs/refpay-poll-payments").config
      })
      return config
    }
    try {
      delete process.env.REFPAY_POLL_EVERY_SECONDS
      expect(loadJob()).toEqual({ name: "refpay-poll-payments", schedule: "* * * * *" })
      process.env.REFPAY_POLL_EVERY_SECONDS = "5"
      expect(loadJob()).toEqual({ name: "refpay-poll-payments", schedule: { interval: 5_000 } })
    } finally {
      if (saved === undefined) delete process.env.REFPAY_POLL_EVERY_SECONDS
      else process.env.REFPAY_POLL_EVERY_SECONDS = saved
    }
  })

  it("is a separate setting from how often each payment is checked (REFPAY_POLL_INTERVAL_MINUTES)", () => {
    const options = resolveOptions(base, { REFPAY_POLL_EVERY_SECONDS: "5", REFPAY_POLL_INTERVAL_MINUTES: "10" })
    expect([options.pollEverySeconds, options.pollIntervalMinutes]).toEqual([5, 10])
  })
})

describe("webhook syncs at once per process (webhookSyncsAtOnce, REFPAY_WEBHOOK_SYNCS_AT_ONCE)", () => {
  it("is 32 unless REFPAY_WEBHOOK_SYNCS_AT_ONCE says otherwise, and refuses a value out of 1 to 256", () => {
    expect(shopWideSetting("webhookSyncsAtOnce", {})).toBe(32)
    expect(shopWideSetting("webhookSyncsAtOnce", { REFPAY_WEBHOOK_SYNCS_AT_ONCE: "2" })).toBe(2)
    for (const wrong of ["0", "257", "many"]) {
      expect(() => shopWideSetting("webhookSyncsAtOnce", { REFPAY_WEBHOOK_SYNCS_AT_ONCE: wrong })).toThrow(
        /webhookSyncsAtOnce \(REFPAY_WEBHOOK_SYNCS_AT_ONCE\): set REFPAY_WEBHOOK_SYNCS_AT_ONCE to a whole number from 1 to 256/
      )
    }
  })

  it("is read from REFPAY_WEBHOOK_SYNCS_AT_ONCE only: a provider option or an account's variable that disagrees stops the boot", () => {
    expect(() => resolveOptions({ ...base, webhookSyncsAtOnce: 4 }, {})).toThrow(
      /webhookSyncsAtOnce is 4 here but the shop runs with 32.*set REFPAY_WEBHOOK_SYNCS_AT_ONCE/
    )
    expect(() => resolveOptions({ account: "porto", ...base }, { REFPAY_PORTO_WEBHOOK_SYNCS_AT_ONCE: "4" })).toThrow(
      /REFPAY_WEBHOOK_SYNCS_AT_ONCE only/
    )
    expect(
      resolveOptions({ ...base, webhookSyncsAtOnce: 4 }, { REFPAY_WEBHOOK_SYNCS_AT_ONCE: "4" }).webhookSyncsAtOnce
    ).toBe(4)
  })
})

describe("where a poll run's checks are made (pollSpread, REFPAY_POLL_SPREAD)", () => {
  it("is auto unless REFPAY_POLL_SPREAD says on or off, and refuses anything else", () => {
    expect(shopWideSetting("pollSpread", {})).toBe("auto")
    expect(shopWideSetting("pollSpread", { REFPAY_POLL_SPREAD: "off" })).toBe("off")
    expect(() => shopWideSetting("pollSpread", { REFPAY_POLL_SPREAD: "yes" })).toThrow(
      /pollSpread \(REFPAY_POLL_SPREAD\): set REFPAY_POLL_SPREAD to "auto" or "on" or "off"/
    )
  })

  it("is read from REFPAY_POLL_SPREAD only: a provider option that disagrees stops the boot", () => {
    expect(() => resolveOptions({ ...base, pollSpread: "off" }, {})).toThrow(
      /pollSpread is off here but the shop runs with auto.*set REFPAY_POLL_SPREAD/
    )
    expect(resolveOptions({ ...base, pollSpread: "on" }, { REFPAY_POLL_SPREAD: "on" }).pollSpread).toBe("on")
  })
})

import { randomUUID } from "node:crypto"
import fc from "fast-check"
import { startSandbox, type RunningSandbox } from "../src"
import { control, stopSandbox } from "./support/client"

/**
 * What the `/__sandbox` controls answer to a body they cannot use: 400 INVALID_REQUEST naming every wrong field
 * once, in the order the control documents them, unknown fields last (as the platform routes do), and nothing
 * changed. A test or a shop owner driving the sandbox by hand reads these messages.
 */
let sb: RunningSandbox

beforeAll(async () => {
  sb = await startSandbox({ port: 0 })
})
afterEach(() => sb.reset())
afterAll(() => stopSandbox(sb))

const SOME_PAYMENT = `/payments/${randomUUID()}/pay`
const SOME_REFERENCE = "/references/12345/012345678/pay"
const SOME_RELEASE = "/faults/1/release"

const CLOCK_RANGE = "must keep the clock between 1970-01-01 and 9999-12-31"

type Case = [name: string, path: string, body: unknown, details: Array<[field: string, message: string]>]

const REFUSED: Case[] = [
  ["pay: force not a boolean", SOME_PAYMENT, { force: "yes" }, [["force", "must be a boolean"]]],
  ["pay: force null", SOME_PAYMENT, { force: null }, [["force", "must not be null"]]],
  ["pay: unknown field", SOME_PAYMENT, { force: true, amount: 5 }, [["amount", "is not allowed"]]],
  ["pay by reference: force not a boolean", SOME_REFERENCE, { force: "yes" }, [["force", "must be a boolean"]]],
  [
    "pay by reference: bad entity, reference and body",
    "/references/1/x/pay",
    { force: 1, amount: 5 },
    [
      ["entity", "must be 5 digits"],
      ["reference", "must be 9 digits"],
      ["force", "must be a boolean"],
      ["amount", "is not allowed"],
    ],
  ],
  ["faults: hold not a boolean", "/faults", { path: "/auth", hold: 1 }, [["hold", "must be a boolean"]]],
  [
    "faults: hold_max_ms without hold",
    "/faults",
    { path: "/auth", status: 500, hold_max_ms: 10 },
    [["hold_max_ms", "needs hold: true"]],
  ],
  [
    "faults: hold_max_ms fractional",
    "/faults",
    { path: "/auth", hold: true, hold_max_ms: 1.5 },
    [["hold_max_ms", "must be an integer from 1 to 600000"]],
  ],
  ["faults/{id}/release: count 0", SOME_RELEASE, { count: 0 }, [["count", "must be an integer >= 1"]]],
  ["faults/{id}/release: unknown field", SOME_RELEASE, { id: 1 }, [["id", "is not allowed"]]],
  ["clock: nothing to do", "/clock", {}, [["body", "exactly one of advance_ms, advance_days or set is required"]]],
  [
    "clock: two moves",
    "/clock",
    { advance_ms: 1, set: 0 },
    [["body", "exactly one of advance_ms, advance_days or set is required"]],
  ],
  ["clock: advance_ms a string", "/clock", { advance_ms: "1" }, [["advance_ms", "must be a number"]]],
  ["clock: advance_days a string", "/clock", { advance_days: "1" }, [["advance_days", "must be a number"]]],
  ["clock: set not a time", "/clock", { set: "tomorrow" }, [["set", "must be an ISO 8601 time or epoch ms"]]],
  ["clock: set a boolean", "/clock", { set: true }, [["set", "must be an ISO 8601 time or epoch ms"]]],
  // Found by the property below: a clock past what an ISO 8601 time can show made every later view answer 500.
  ["clock: advance before 1970", "/clock", { advance_ms: -8641795442604044 }, [["advance_ms", CLOCK_RANGE]]],
  ["clock: advance_days past 9999", "/clock", { advance_days: 1e300 }, [["advance_days", CLOCK_RANGE]]],
  ["clock: set past 9999", "/clock", { set: 8.64e15 }, [["set", CLOCK_RANGE]]],
  ["clock: set before 1970", "/clock", { set: "1969-12-31T23:59:59.999Z" }, [["set", CLOCK_RANGE]]],
  [
    "clock: wrong value and unknown field",
    "/clock",
    { advance_ms: "x", rewind: 1 },
    [
      ["advance_ms", "must be a number"],
      ["rewind", "is not allowed"],
    ],
  ],
  [
    "webhooks/config: url relative",
    "/webhooks/config",
    { url: "/hooks/refpay" },
    [["url", "must be an absolute http(s) URL or null"]],
  ],
  [
    "webhooks/config: url ftp",
    "/webhooks/config",
    { url: "ftp://example.test/x" },
    [["url", "must be an absolute http(s) URL or null"]],
  ],
  [
    "webhooks/config: empty secret",
    "/webhooks/config",
    { secret: "" },
    [["secret", "must be a non-empty string or null"]],
  ],
  ["webhooks/config: auth", "/webhooks/config", { auth: "bearer" }, [["auth", 'must be "header" or "basic"']]],
  ["webhooks/config: retries", "/webhooks/config", { retries: 101 }, [["retries", "must be an integer from 0 to 100"]]],
  [
    "webhooks/config: retries fractional",
    "/webhooks/config",
    { retries: 1.5 },
    [["retries", "must be an integer from 0 to 100"]],
  ],
  [
    "webhooks/config: backoff",
    "/webhooks/config",
    { backoff_ms: -1 },
    [["backoff_ms", "must be an integer from 0 to 3600000"]],
  ],
  [
    "webhooks/config: every field wrong",
    "/webhooks/config",
    { url: 5, secret: 5, auth: 5, retries: "5", backoff_ms: "5", signature: "x" },
    [
      ["url", "must be an absolute http(s) URL or null"],
      ["secret", "must be a non-empty string or null"],
      ["auth", 'must be "header" or "basic"'],
      ["retries", "must be an integer from 0 to 100"],
      ["backoff_ms", "must be an integer from 0 to 3600000"],
      ["signature", "is not allowed"],
    ],
  ],
  ["webhooks/faults: no mode", "/webhooks/faults", {}, [["mode", "is required"]]],
  ["webhooks/faults: mode", "/webhooks/faults", { mode: "lose" }, [["mode", 'must be "drop", "duplicate" or "delay"']]],
  ["webhooks/faults: count", "/webhooks/faults", { mode: "drop", count: 0 }, [["count", "must be an integer >= 1"]]],
  [
    "webhooks/faults: copies",
    "/webhooks/faults",
    { mode: "duplicate", copies: 1 },
    [["copies", "must be an integer from 2 to 100"]],
  ],
  [
    "webhooks/faults: delay without delay_ms",
    "/webhooks/faults",
    { mode: "delay" },
    [["delay_ms", "must be an integer from 0 to 600000 for mode delay"]],
  ],
  [
    "webhooks/faults: delay_ms too long",
    "/webhooks/faults",
    { mode: "delay", delay_ms: 600_001 },
    [["delay_ms", "must be an integer from 0 to 600000 for mode delay"]],
  ],
  [
    "webhooks/faults: wrong values and unknown field",
    "/webhooks/faults",
    { mode: "drop", count: "2", copies: 200, when: "after" },
    [
      ["count", "must be an integer >= 1"],
      ["copies", "must be an integer from 2 to 100"],
      ["when", "is not allowed"],
    ],
  ],
  ["next-reference: no reference", "/next-reference", {}, [["reference", "is required"]]],
  [
    "next-reference: short reference",
    "/next-reference",
    { reference: "12345678" },
    [["reference", "must be 9 digits"]],
  ],
  [
    "next-reference: reference a number",
    "/next-reference",
    { reference: 123456789 },
    [["reference", "must be 9 digits"]],
  ],
  [
    "next-reference: entity and unknown field",
    "/next-reference",
    { reference: "123456789", entity: "1234", amount: 1 },
    [
      ["entity", "must be 5 digits"],
      ["amount", "is not allowed"],
    ],
  ],
]

describe("a /__sandbox control refuses a body it cannot use", () => {
  it.each(REFUSED)("%s", async (_name, path, body, details) => {
    const before = await state()
    const res = await control(sb, "POST", path, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error_code: "INVALID_REQUEST",
      message: "Invalid sandbox control request",
      details: details.map(([field, message]) => ({ field, message })),
    })
    expect(await state()).toEqual(before)
  })

  it("a body that is not a JSON object is refused by every control that takes one", async () => {
    for (const path of [
      SOME_PAYMENT,
      SOME_REFERENCE,
      "/clock",
      "/webhooks/config",
      "/webhooks/faults",
      "/next-reference",
      "/faults",
      SOME_RELEASE,
    ]) {
      for (const body of [[1], "x", 5, null]) {
        const res = await control(sb, "POST", path, body)
        expect(res.body.details).toEqual([{ field: "body", message: "must be a JSON object" }])
      }
    }
  })

  it("never answers 500 and names at least one field whatever JSON a control is sent (fast-check)", async () => {
    const paths = [
      "/clock",
      "/webhooks/config",
      "/webhooks/faults",
      "/next-reference",
      "/faults",
      SOME_PAYMENT,
      SOME_REFERENCE,
      SOME_RELEASE,
    ]
    const keys = fc.constantFrom(
      "force",
      "advance_ms",
      "advance_days",
      "set",
      "url",
      "secret",
      "auth",
      "retries",
      "backoff_ms",
      "mode",
      "count",
      "copies",
      "delay_ms",
      "entity",
      "reference",
      "path",
      "status",
      "hold",
      "hold_max_ms",
      "other"
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.dictionary(keys, fc.jsonValue({ maxDepth: 2 })),
        async (path, body) => {
          const res = await control(sb, "POST", path, body)
          expect([200, 201, 400, 404, 409]).toContain(res.status)
          if (res.status === 400) {
            expect(res.body.details.length).toBeGreaterThan(0)
            for (const d of res.body.details)
              expect(typeof d.field === "string" && typeof d.message === "string").toBe(true)
          }
          sb.reset()
        }
      ),
      { numRuns: 300 }
    )
  })
})

describe("a /__sandbox control takes what its page documents", () => {
  it("webhooks/config sets and removes url and secret, and the delivery settings", async () => {
    const set = await control(sb, "POST", "/webhooks/config", {
      url: "http://127.0.0.1:9/hooks",
      secret: "s",
      auth: "basic",
      retries: 0,
      backoff_ms: 3_600_000,
    })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({
      url: "http://127.0.0.1:9/hooks",
      auth: "basic",
      retries: 0,
      backoff_ms: 3_600_000,
    })
    const removed = await control(sb, "POST", "/webhooks/config", { url: null, secret: null })
    expect(removed.status).toBe(200)
    expect(removed.body).toMatchObject({ url: null, auth: "basic", retries: 0 })
  })

  it("clock: set as ISO 8601 or epoch ms, advance in days", async () => {
    // The sandbox clock keeps running after a set: the answer may be a few milliseconds later than the target.
    const expectJustAfter = (now: string, target: string) => {
      expect(Date.parse(now) - Date.parse(target)).toBeGreaterThanOrEqual(0)
      expect(Date.parse(now) - Date.parse(target)).toBeLessThan(1_000)
    }
    const iso = await control(sb, "POST", "/clock", { set: "2030-01-02T03:04:05.000Z" })
    expectJustAfter(iso.body.now, "2030-01-02T03:04:05.000Z")
    const epoch = await control(sb, "POST", "/clock", { set: Date.parse("2031-01-01T00:00:00.000Z") })
    expectJustAfter(epoch.body.now, "2031-01-01T00:00:00.000Z")
    const days = await control(sb, "POST", "/clock", { advance_days: 1.5 })
    expect(days.body.offset_ms - epoch.body.offset_ms).toBe(1.5 * 86_400_000)
  })

  it("webhooks/faults: a delay with delay_ms, a duplicate with copies, a drop with an empty count", async () => {
    expect((await control(sb, "POST", "/webhooks/faults", { mode: "delay", delay_ms: 0 })).status).toBe(200)
    expect((await control(sb, "POST", "/webhooks/faults", { mode: "duplicate", copies: 100, count: 3 })).status).toBe(
      200
    )
    const all = await control(sb, "POST", "/webhooks/faults", { mode: "drop" })
    expect(all.body.count).toBe(3)
  })

  it("pay: an empty body is {}", async () => {
    const res = await control(sb, "POST", SOME_PAYMENT)
    expect(res.status).toBe(404)
  })
})

/** What a refused control must leave alone. */
async function state(): Promise<unknown> {
  const [clock, config, faults] = await Promise.all([
    control(sb, "GET", "/clock"),
    control(sb, "GET", "/webhooks/config"),
    control(sb, "GET", "/webhooks/faults"),
  ])
  return { offset: clock.body.offset_ms, config: config.body, faults: faults.body }
}

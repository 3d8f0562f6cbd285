import { pageLeaseMs } from "../due-pages"

describe("a page of due checks handed to another process is leased", () => {
  it("for five runs of the poll job, so a backlog on the event bus is not handed out twice", () => {
    expect(pageLeaseMs({})).toBe(300_000) // every minute, the default
    expect(pageLeaseMs({ REFPAY_POLL_EVERY_SECONDS: "30" })).toBe(150_000)
  })

  it("for at least 30 seconds, however often the job runs (a page takes seconds to check)", () => {
    expect(pageLeaseMs({ REFPAY_POLL_EVERY_SECONDS: "1" })).toBe(30_000)
    expect(pageLeaseMs({ REFPAY_POLL_EVERY_SECONDS: "6" })).toBe(30_000)
    expect(pageLeaseMs({ REFPAY_POLL_EVERY_SECONDS: "7" })).toBe(35_000)
  })
})

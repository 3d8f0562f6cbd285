import { interpretStatus, PLATFORM_STATUSES } from "../status"

describe("platform status table", () => {
  it.each([
    ["WAITING", "awaiting", "pending_authorization"],
    ["PENDING", "awaiting", "pending_authorization"],
    ["REQUIRES_ACTION", "awaiting", "pending_authorization"],
    ["AUTHORIZED", "awaiting", "pending_authorization"],
    ["APPROVED", "paid", "captured"],
    ["CAPTURED", "paid", "captured"],
    ["CANCELLED", "cancelled", "canceled"],
    ["CANCELED", "cancelled", "canceled"],
    ["EXPIRED", "cancelled", "canceled"],
    ["DECLINED", "cancelled", "canceled"],
    ["DENIED", "cancelled", "canceled"],
    ["FAILED", "failed", "error"],
    ["ERROR", "failed", "error"],
  ])("maps %s to outcome %s and session status %s", (raw, outcome, session) => {
    const status = interpretStatus(raw)
    expect(status).toMatchObject({ outcome, session, known: true, raw })
  })

  it("covers every known status", () => {
    for (const status of PLATFORM_STATUSES) expect(interpretStatus(status).known).toBe(true)
  })

  it("reads statuses case-insensitively but keeps the raw text", () => {
    expect(interpretStatus("approved")).toMatchObject({ outcome: "paid", raw: "approved" })
  })

  it("treats an unknown status as still awaiting payment, never as paid", () => {
    expect(interpretStatus("SETTLED_MAYBE")).toMatchObject({
      outcome: "awaiting",
      session: "pending_authorization",
      known: false,
    })
  })
})

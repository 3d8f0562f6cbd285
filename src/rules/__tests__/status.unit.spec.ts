import { canMove, EVENT_STATUS, interpretStatus, PLATFORM_STATUSES } from "../status"

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
      webhookAction: "pending_authorization",
      known: false,
    })
  })

  it("maps each webhook event type to its status", () => {
    expect(EVENT_STATUS).toEqual({
      PENDING_TRANSACTIONS: "WAITING",
      APPROVED_TRANSACTIONS: "APPROVED",
      CANCELLED_TRANSACTIONS: "CANCELLED",
    })
  })
})

describe("payments only move forward", () => {
  it.each([
    ["awaiting", "paid", true],
    ["awaiting", "cancelled", true],
    ["awaiting", "failed", true],
    ["awaiting", "awaiting", false],
    ["paid", "awaiting", false],
    ["paid", "cancelled", false],
    ["paid", "failed", false],
    ["cancelled", "awaiting", false],
    ["cancelled", "paid", true],
    ["failed", "paid", true],
    ["failed", "cancelled", false],
  ] as const)("%s -> %s allowed: %s", (from, to, allowed) => {
    expect(canMove(from, to)).toBe(allowed)
  })
})

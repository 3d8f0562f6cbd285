import { planDeletedSession, type DeletedSessionInput } from "../deleted-session"

const input = (overrides: Partial<DeletedSessionInput> = {}): DeletedSessionInput => ({
  platformStatus: "APPROVED",
  paidCents: 2498,
  refundedCents: 0,
  flagged: false,
  refund: "off",
  ...overrides,
})

describe("planDeletedSession: a reference whose session Medusa deleted, acted on from the plugin's own record", () => {
  it.each<[string, Partial<DeletedSessionInput>, ReturnType<typeof planDeletedSession>]>([
    ["still waiting", { platformStatus: "WAITING" }, { flag: false, refundCents: 0, outcome: "record_check" }],
    ["cancelled, unpaid", { platformStatus: "CANCELLED" }, { flag: false, refundCents: 0, outcome: "record_check" }],
    [
      "an unknown status never moves it",
      { platformStatus: "SETTLING" },
      { flag: false, refundCents: 0, outcome: "record_check" },
    ],
    ["paid: flagged once, held", {}, { flag: true, refundCents: 0, outcome: "paid_after_session_deleted" }],
    [
      "paid, flagged already",
      { flagged: true },
      { flag: false, refundCents: 0, outcome: "paid_after_session_deleted" },
    ],
    [
      "paid, refunded automatically",
      { refund: "auto" },
      { flag: true, refundCents: 2498, outcome: "refunded_after_session_deleted" },
    ],
    [
      "paid, the owner refunds the rest",
      { flagged: true, refundedCents: 498, refund: "owner" },
      { flag: false, refundCents: 2000, outcome: "refunded_after_session_deleted" },
    ],
    [
      "paid and refunded on the platform already",
      { flagged: true, refundedCents: 2498, refund: "owner" },
      { flag: false, refundCents: 0, outcome: "refunded_after_session_deleted" },
    ],
  ])("%s", (_what, overrides, want) => {
    expect(planDeletedSession(input(overrides))).toEqual(want)
  })
})

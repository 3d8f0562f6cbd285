import { expiryOutcome, renewalRefusal, type ExpiryInput } from "../expiry-policy"

const input = (overrides: Partial<ExpiryInput> = {}): ExpiryInput => ({
  policy: "renew",
  maxRenewals: 1,
  expiredSoFar: 1,
  cancelExpiredOrders: true,
  orderOpen: true,
  platformDid: "cancelled",
  ...overrides,
})

describe("expiryOutcome: what an expired reference does to its order (spec 3 rule 2)", () => {
  it.each<[string, Partial<ExpiryInput>, string]>([
    ["renews the first expiry under renew", {}, "renew"],
    ["cancels after the last renewal", { expiredSoFar: 2 }, "cancel_order"],
    ["renews twice with a limit of 2", { expiredSoFar: 2, maxRenewals: 2 }, "renew"],
    ["never renews with a limit of 0", { maxRenewals: 0 }, "cancel_order"],
    ["cancels under cancel", { policy: "cancel" }, "cancel_order"],
    ["keeps the order when the shop cancels nothing", { policy: "cancel", cancelExpiredOrders: false }, "keep_order"],
    ["keeps an order paid at the last moment", { platformDid: "refused_paid" }, "keep_order"],
    ["does not renew when the platform refunded a last-moment payment", { platformDid: "refunded" }, "cancel_order"],
    ["leaves a cancelled order alone", { orderOpen: false }, "keep_order"],
    [
      "keeps an order paid for when only a difference expired",
      { policy: "cancel", orderPaidElsewhere: true },
      "keep_order",
    ],
    ["keeps it after the last renewal of a difference", { expiredSoFar: 2, orderPaidElsewhere: true }, "keep_order"],
    ["still renews a difference's reference", { orderPaidElsewhere: true }, "renew"],
  ])("%s", (_name, overrides, expected) => {
    expect(expiryOutcome(input(overrides))).toBe(expected)
  })
})

describe("renewalRefusal: when the admin may issue a new reference", () => {
  it("allows an open order whose references all ended unpaid", () => {
    expect(renewalRefusal({ orderStatus: "pending", sessions: [{ status: "canceled", captured: false }] })).toBeNull()
  })
  it("refuses a cancelled order, a paid one, and one whose reference can still be paid", () => {
    expect(renewalRefusal({ orderStatus: "canceled", sessions: [] })).toMatch(/cancelled/)
    expect(renewalRefusal({ orderStatus: "pending", sessions: [{ status: "authorized", captured: true }] })).toMatch(
      /paid/
    )
    expect(
      renewalRefusal({ orderStatus: "pending", sessions: [{ status: "pending_authorization", captured: false }] })
    ).toMatch(/can still be paid/)
  })
})

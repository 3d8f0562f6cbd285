import { collectionState, planPaymentRequest, type CollectionFacts } from "../outstanding"

const REFPAY = "pp_refpay_refpay"

function collection(overrides: Partial<CollectionFacts> = {}): CollectionFacts {
  return { id: "pay_col_2", status: "not_paid", amountCents: 1999, sessions: [], ...overrides }
}

const waiting = { id: "ps_live", providerId: REFPAY, status: "pending_authorization", hasReference: true }
const expired = { id: "ps_old", providerId: REFPAY, status: "canceled", hasReference: true }
const other = { id: "ps_sys", providerId: "pp_system_default", status: "pending", hasReference: false }

describe("collectionState: what a payment collection of a placed order is, for a REFPAY payment request", () => {
  it.each<[string, Partial<CollectionFacts>, ReturnType<typeof collectionState>]>([
    ["fully captured", { status: "completed" }, "paid"],
    ["refunded after capture", { status: "partially_refunded" }, "paid"],
    ["waiting on a REFPAY reference", { status: "awaiting", sessions: [waiting] }, "awaiting_refpay"],
    ["unpaid, nothing started", { status: "not_paid" }, "requestable"],
    ["awaiting, its reference expired", { status: "awaiting", sessions: [expired] }, "requestable"],
    ["unpaid, another method's session not authorised", { sessions: [other] }, "requestable"],
    ["unpaid but nothing due", { amountCents: 0 }, "nothing_due"],
    ["cancelled", { status: "canceled" }, "nothing_due"],
    ["authorised by another method", { status: "authorized" }, "nothing_due"],
  ])("%s: %s", (_what, overrides, want) => {
    expect(collectionState(collection(overrides))).toBe(want)
  })
})

describe("planPaymentRequest: which collection a request pays", () => {
  const paid = collection({ id: "pay_col_1", status: "completed", amountCents: 2498 })

  it("answers the reference already waiting (asking twice gives the same reference)", () => {
    const due = collection({ status: "awaiting", sessions: [expired, waiting] })
    expect(planPaymentRequest([paid, due], 1999)).toEqual({
      kind: "existing",
      collectionId: due.id,
      sessionId: "ps_live",
    })
    expect(planPaymentRequest([paid, due], 1999, due.id)).toMatchObject({ kind: "existing" })
  })

  it("issues on the open collection, for exactly what it asks for", () => {
    expect(planPaymentRequest([paid, collection()], 1999)).toEqual({
      kind: "issue",
      collectionId: "pay_col_2",
      amountCents: 1999,
    })
  })

  it("opens a collection for what the order owes only when none is in play", () => {
    expect(planPaymentRequest([], 2498)).toEqual({ kind: "open_collection", amountCents: 2498 })
    expect(planPaymentRequest([paid], 500)).toEqual({ kind: "open_collection", amountCents: 500 })
    expect(planPaymentRequest([paid, collection({ status: "authorized" })], 1999)).toEqual({
      kind: "refuse",
      reason: "nothing_due",
    })
  })

  it("refuses a collection of another order, and an order that owes nothing", () => {
    expect(planPaymentRequest([paid], 0, "pay_col_x")).toEqual({ kind: "refuse", reason: "not_found" })
    expect(planPaymentRequest([paid], 0)).toEqual({ kind: "refuse", reason: "nothing_due" })
    expect(planPaymentRequest([paid], 0, paid.id)).toEqual({ kind: "refuse", reason: "nothing_due" })
  })
})

import fc from "fast-check"
import {
  claimCollection,
  collectionState,
  endedReferences,
  planPaymentRequest,
  storeRequestRefusal,
  type CollectionAmounts,
  type StoreRequestInput,
} from "../outstanding"

const REFPAY = "pp_refpay_refpay"

function collection(overrides: Partial<CollectionAmounts> = {}): CollectionAmounts {
  return { id: "pay_col_2", status: "not_paid", amountCents: 1999, sessions: [], ...overrides }
}

const waiting = { id: "ps_live", providerId: REFPAY, status: "pending_authorization", hasReference: true }
const expired = { id: "ps_old", providerId: REFPAY, status: "canceled", hasReference: true }
const other = { id: "ps_sys", providerId: "pp_system_default", status: "pending", hasReference: false }
/** A REFPAY session created for a reference whose platform call is under way (or was cut short). */
const coming = { id: "ps_new", providerId: REFPAY, status: "pending", hasReference: false, issuing: true }
/** A REFPAY session a storefront created on its own (Medusa's store route on a collection without a reference). */
const storefronts = { id: "ps_store", providerId: REFPAY, status: "pending", hasReference: false, issuing: false }
const captured = { id: "ps_paid", providerId: REFPAY, status: "authorized", hasReference: true }

describe("collectionState: what a payment collection of a placed order is, for a REFPAY payment request", () => {
  it.each<[string, Partial<CollectionAmounts>, ReturnType<typeof collectionState>]>([
    ["fully captured", { status: "completed" }, "paid"],
    ["refunded after capture", { status: "partially_refunded" }, "paid"],
    ["waiting on a REFPAY reference", { status: "awaiting", sessions: [waiting] }, "awaiting_refpay"],
    ["unpaid, nothing started", { status: "not_paid" }, "requestable"],
    ["awaiting, its reference expired", { status: "awaiting", sessions: [expired] }, "requestable"],
    ["a renewal's reference being issued", { status: "awaiting", sessions: [expired, coming] }, "awaiting_refpay"],
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

describe("planPaymentRequest: a reference being issued holds the collection", () => {
  it("answers the session being issued instead of issuing a second reference beside it", () => {
    const renewing = collection({ status: "awaiting", sessions: [expired, coming] })
    expect(planPaymentRequest([renewing], 1999, renewing.id)).toEqual({
      kind: "existing",
      collectionId: renewing.id,
      sessionId: coming.id,
    })
  })
})

describe("claimCollection: what an issuer does, under the collection's lock", () => {
  it.each<[string, CollectionAmounts["sessions"], ReturnType<typeof claimCollection>]>([
    ["nothing there", [], { kind: "create" }],
    ["only expired references and another method", [expired, other], { kind: "create" }],
    ["a payable reference", [expired, waiting], { kind: "taken", sessionId: waiting.id }],
    ["a paid reference", [captured], { kind: "taken", sessionId: captured.id }],
    ["a reference whose issue was cut short", [expired, coming], { kind: "resume", sessionId: coming.id }],
    ["a payable one beside one being issued", [coming, waiting], { kind: "taken", sessionId: waiting.id }],
    ["only a session a storefront created, never issued by the plugin", [storefronts], { kind: "create" }],
  ])("%s", (_what, sessions, want) => {
    expect(claimCollection(sessions)).toEqual(want)
  })

  it("never creates a reference while one is payable, paid or coming (property)", () => {
    const session = fc.record({
      id: fc.string(),
      providerId: fc.constantFrom(REFPAY, "pp_refpay_porto", "pp_system_default"),
      status: fc.constantFrom("pending", "pending_authorization", "authorized", "captured", "canceled", "error"),
      hasReference: fc.boolean(),
      issuing: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.array(session, { maxLength: 6 }), (sessions) => {
        const claim = claimCollection(sessions)
        const held = collectionState(collection({ status: "awaiting", sessions })) === "awaiting_refpay"
        const paid = sessions.some(
          (s) =>
            s.providerId.startsWith("pp_refpay") &&
            s.hasReference &&
            s.status !== "canceled" &&
            s.status !== "pending" &&
            s.status !== "error"
        )
        if (held || paid) expect(claim.kind).not.toBe("create")
        else expect(claim.kind).toBe("create")
      }),
      { seed: 40, numRuns: 500 }
    )
  })
})

describe("storeRequestRefusal: a customer's request issues only what the shop allows", () => {
  const input = (overrides: Partial<StoreRequestInput> = {}): StoreRequestInput => ({
    setting: "refpay_orders",
    orderHasRefpayReference: true,
    endedReferences: 0,
    expiryPolicy: "renew",
    maxRenewals: 1,
    ...overrides,
  })

  it.each<[string, Partial<StoreRequestInput>, ReturnType<typeof storeRequestRefusal>]>([
    ["a difference of a REFPAY order", {}, null],
    ["an expired reference the policy would renew", { endedReferences: 1 }, null],
    ["beyond the renewal limit", { endedReferences: 2 }, "renewal_is_the_shops"],
    ["under the policy cancel", { endedReferences: 1, expiryPolicy: "cancel" }, "renewal_is_the_shops"],
    ["with no renewals allowed", { endedReferences: 1, maxRenewals: 0 }, "renewal_is_the_shops"],
    ["an order with no REFPAY reference, by default", { orderHasRefpayReference: false }, "not_a_refpay_order"],
    ["an order with no REFPAY reference, setting any", { orderHasRefpayReference: false, setting: "any" }, null],
    ["any, but beyond the renewal limit", { setting: "any", endedReferences: 2 }, "renewal_is_the_shops"],
    ["store requests off", { setting: "none" }, "store_requests_off"],
  ])("%s", (_what, overrides, want) => {
    expect(storeRequestRefusal(input(overrides))).toBe(want)
  })

  it("counts the references of a collection that ended unpaid", () => {
    expect(endedReferences(collection({ sessions: [expired, expired, waiting, other] }))).toBe(2)
  })
})

import type { SyncDecision } from "../../../rules/sync-decision"
import type { RefpaySessionState } from "../../../queries/refpay-session-state"
import {
  asksPlatformToCancel,
  cancelMetPayment,
  cancelsOrder,
  capturesPayment,
  expires,
  flagsLatePayment,
  onlyRecordsCheck,
  snapshotOf,
  renewsReference,
  wasRead,
} from "../branches"
import type { SyncSnapshot } from "../steps/read-refpay-payment"

const OPEN_ORDER = { id: "order_1", status: "pending", email: "a@b.pt", displayId: 1 }

function read(decision: SyncDecision, order: RefpaySessionState["order"] = OPEN_ORDER, canIssue = true): SyncSnapshot {
  return {
    kind: "read",
    state: { order } as RefpaySessionState,
    platform: { status: "WAITING" } as never,
    decision,
    canIssue,
  }
}

const FAILED: SyncSnapshot = {
  kind: "failed",
  state: { order: OPEN_ORDER } as RefpaySessionState,
  failure: "platform_error",
  message: "down",
}

describe("the sync workflow's branches (which when() runs which steps)", () => {
  it.each<[SyncDecision, { cancel: boolean; capture: boolean; flagLate: boolean }]>([
    [{ kind: "capture" }, { cancel: false, capture: true, flagLate: false }],
    [{ kind: "capture_late" }, { cancel: false, capture: true, flagLate: true }],
    [
      { kind: "capture_refunded", refundCents: 100 },
      { cancel: false, capture: true, flagLate: false },
    ],
    [{ kind: "flag_late" }, { cancel: false, capture: false, flagLate: true }],
    [{ kind: "cancel_reference" }, { cancel: true, capture: false, flagLate: false }],
    [{ kind: "expire" }, { cancel: true, capture: false, flagLate: false }],
    [{ kind: "cancel_order" }, { cancel: false, capture: false, flagLate: false }],
    [
      { kind: "reissue", amountCents: 2498 },
      { cancel: true, capture: false, flagLate: false },
    ],
  ] as never)("%j asks the platform to cancel / captures / flags a late payment: %j", (decision, want) => {
    const snapshot = read(decision)
    expect({
      cancel: asksPlatformToCancel(snapshot),
      capture: capturesPayment(snapshot),
      flagLate: flagsLatePayment(snapshot),
    }).toEqual(want)
  })

  it("acts on nothing but the check's record when the platform could not be read", () => {
    expect([asksPlatformToCancel(FAILED), capturesPayment(FAILED), flagsLatePayment(FAILED), wasRead(FAILED)]).toEqual([
      false,
      false,
      false,
      false,
    ])
    expect(() => snapshotOf(FAILED)).toThrow(/failed snapshot/)
  })

  it("cancels an open order when the platform will never be paid, or when the expiry policy says so", () => {
    expect(cancelsOrder(read({ kind: "cancel_order" }), undefined)).toBe(true)
    expect(cancelsOrder(read({ kind: "expire" }), "cancel_order")).toBe(true)
    expect(cancelsOrder(read({ kind: "expire" }), "renew")).toBe(false)
    expect(cancelsOrder(read({ kind: "expire" }), "keep_order")).toBe(false)
  })

  it("never cancels an order twice, nor one that does not exist", () => {
    expect(
      cancelsOrder(read({ kind: "cancel_order" } as SyncDecision, { ...OPEN_ORDER, status: "canceled" }), undefined)
    ).toBe(false)
    expect(cancelsOrder(read({ kind: "expire" }, null), "cancel_order")).toBe(false)
  })

  const CANCELLED = { platformDid: "cancelled", platformPaid: false, data: null } as const
  const REFUNDED = { platformDid: "refunded", platformPaid: true, data: null } as const
  const REFUSED_PAID = { platformDid: "refused_paid", platformPaid: true, data: null } as const

  it("renews only an expired reference the policy renews", () => {
    expect(expires(read({ kind: "expire" }))).toBe(true)
    expect(renewsReference(read({ kind: "expire" }), "renew", CANCELLED)).toBe(true)
    expect(renewsReference(read({ kind: "expire" }), "cancel_order", CANCELLED)).toBe(false)
    expect(renewsReference(read({ kind: "capture" }), "renew", CANCELLED)).toBe(false)
  })

  it("issues a reference for an edited order's new amount only once the platform cancelled the old one", () => {
    const reissue = read({ kind: "reissue", amountCents: 2498 })
    expect(renewsReference(reissue, undefined, CANCELLED)).toBe(true)
    expect(renewsReference(reissue, undefined, REFUNDED)).toBe(false)
    expect(renewsReference(reissue, undefined, REFUSED_PAID)).toBe(false)
    const notIssuable = (decision: SyncDecision) => read(decision, OPEN_ORDER, false)
    expect(renewsReference(notIssuable({ kind: "reissue", amountCents: 0 }), undefined, CANCELLED)).toBe(false)
    expect(renewsReference(notIssuable({ kind: "reissue", amountCents: 50 }), undefined, CANCELLED)).toBe(false)
    expect(renewsReference(notIssuable({ kind: "expire" }), "renew", CANCELLED)).toBe(false)
    expect(renewsReference(FAILED, undefined, CANCELLED)).toBe(false)
  })

  it("runs a second pass only when the cancellation met the customer's payment", () => {
    expect(cancelMetPayment({ platformDid: "refunded", platformPaid: true, data: null })).toBe(true)
    expect(cancelMetPayment({ platformDid: "refused_paid", platformPaid: true, data: null })).toBe(true)
    expect(cancelMetPayment({ platformDid: "cancelled", platformPaid: false, data: null })).toBe(false)
  })

  it("lets the poll run batch a check only when the sync would do nothing but record it", () => {
    const capturedRead = (decision: SyncDecision): SyncSnapshot => {
      const snapshot = read(decision) as Extract<SyncSnapshot, { kind: "read" }>
      return { ...snapshot, state: { ...snapshot.state, payment: { capturedAt: "2026-11-26T00:00:00Z" } } as never }
    }
    expect(onlyRecordsCheck(read({ kind: "record_check" }), false)).toBe(true)
    expect(onlyRecordsCheck(read({ kind: "none", why: "already cancelled" }), false)).toBe(true)
    // A reminder owed, a captured payment, a failed read, anything that acts: the full sync.
    expect(onlyRecordsCheck(read({ kind: "record_check" }), true)).toBe(false)
    expect(onlyRecordsCheck(capturedRead({ kind: "none", why: "already captured" }), false)).toBe(false)
    expect(onlyRecordsCheck(FAILED, false)).toBe(false)
    for (const decision of [
      { kind: "capture" },
      { kind: "capture_late" },
      { kind: "capture_refunded", refundCents: 1 },
      { kind: "record_refund", refundCents: 1 },
      { kind: "flag_late" },
      { kind: "cancel_order" },
      { kind: "mark_canceled" },
      { kind: "cancel_reference" },
      { kind: "expire" },
      { kind: "amount_mismatch" },
      { kind: "reissue", amountCents: 1 },
    ] as SyncDecision[])
      expect({ decision, batched: onlyRecordsCheck(read(decision), false) }).toEqual({ decision, batched: false })
  })
})

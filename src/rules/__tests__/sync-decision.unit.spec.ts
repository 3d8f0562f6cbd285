import { interpretStatus } from "../status"
import { decideSync, type MedusaSide } from "../sync-decision"

const NOW = new Date("2026-11-21T12:00:00Z")
const GRACE = 24 * 3600 * 1000

function medusa(overrides: Partial<MedusaSide> = {}): MedusaSide {
  return {
    sessionStatus: "pending_authorization",
    captured: false,
    orderId: "order_1",
    orderCanceled: false,
    amountCents: 2498,
    refundedCents: 0,
    expiresAt: new Date("2026-11-25T12:00:00Z"),
    latePaymentRecorded: false,
    ...overrides,
  }
}

const platform = (status: string, amountCents: number | undefined = 2498, refundedCents = 0) => ({
  status: interpretStatus(status),
  amountCents,
  refundedCents,
})

describe("decideSync: what a webhook, the poll job or 'check now' does", () => {
  it("captures a paid, open order", () => {
    expect(decideSync(medusa(), platform("APPROVED"), NOW, GRACE)).toEqual({ kind: "capture" })
  })

  it("does nothing more for a payment already captured (a repeated event)", () => {
    expect(decideSync(medusa({ captured: true }), platform("APPROVED"), NOW, GRACE).kind).toBe("none")
  })

  it("never moves a captured payment backwards on a late WAITING or CANCELLED", () => {
    expect(decideSync(medusa({ captured: true }), platform("WAITING"), NOW, GRACE).kind).toBe("none")
    expect(decideSync(medusa({ captured: true }), platform("CANCELLED"), NOW, GRACE).kind).toBe("none")
  })

  it("records a payment that arrives after the order was cancelled, instead of dropping it", () => {
    const cancelled = medusa({ orderCanceled: true, sessionStatus: "canceled" })
    expect(decideSync(cancelled, platform("APPROVED"), NOW, GRACE)).toEqual({ kind: "capture_late" })
    expect(decideSync({ ...cancelled, captured: true }, platform("APPROVED"), NOW, GRACE)).toEqual({
      kind: "flag_late",
    })
    expect(
      decideSync({ ...cancelled, captured: true, latePaymentRecorded: true }, platform("APPROVED"), NOW, GRACE).kind
    ).toBe("none")
  })

  it("never captures automatically when the platform reports another amount, or none", () => {
    expect(decideSync(medusa(), platform("APPROVED", 2499), NOW, GRACE)).toEqual({ kind: "amount_mismatch" })
    expect(decideSync(medusa(), { status: interpretStatus("APPROVED") }, NOW, GRACE)).toEqual({
      kind: "amount_mismatch",
    })
    expect(decideSync(medusa({ orderCanceled: true }), platform("APPROVED", 2499), NOW, GRACE)).toEqual({
      kind: "amount_mismatch",
    })
  })

  it("records a refund the platform made when a cancellation met the customer's payment, without a 'refund it' flag", () => {
    const cancelled = medusa({ orderCanceled: true, sessionStatus: "canceled" })
    expect(decideSync(cancelled, platform("APPROVED", 2498, 2498), NOW, GRACE)).toEqual({
      kind: "capture_refunded",
      refundCents: 2498,
    })
    expect(decideSync({ ...cancelled, captured: true }, platform("APPROVED", 2498, 2498), NOW, GRACE)).toEqual({
      kind: "record_refund",
      refundCents: 2498,
    })
    expect(
      decideSync({ ...cancelled, captured: true, refundedCents: 2498 }, platform("APPROVED", 2498, 2498), NOW, GRACE)
        .kind
    ).toBe("none")
  })

  it("records refunds the platform made that Medusa lacks, and flags only money still held after cancellation", () => {
    expect(
      decideSync(medusa({ captured: true, refundedCents: 500 }), platform("APPROVED", 2498, 1500), NOW, GRACE)
    ).toEqual({
      kind: "record_refund",
      refundCents: 1000,
    })
    const cancelled = medusa({ orderCanceled: true, sessionStatus: "canceled" })
    expect(decideSync(cancelled, platform("APPROVED", 2498, 1000), NOW, GRACE)).toEqual({ kind: "capture_late" })
  })

  it("cancels an open order whose reference was cancelled, expired, declined or failed on the platform", () => {
    for (const status of ["CANCELLED", "EXPIRED", "DECLINED", "FAILED"]) {
      expect(decideSync(medusa(), platform(status), NOW, GRACE)).toEqual({ kind: "cancel_order" })
    }
  })

  it("never cancels an order paid for when only the reference of a difference will never be paid", () => {
    for (const status of ["CANCELLED", "DECLINED", "FAILED"]) {
      expect(decideSync(medusa({ orderPaidElsewhere: true }), platform(status), NOW, GRACE)).toEqual({
        kind: "mark_canceled",
      })
    }
  })

  it("only aligns the session when the order is already cancelled", () => {
    expect(decideSync(medusa({ orderCanceled: true }), platform("CANCELLED"), NOW, GRACE)).toEqual({
      kind: "mark_canceled",
    })
    expect(
      decideSync(medusa({ orderCanceled: true, sessionStatus: "canceled" }), platform("CANCELLED"), NOW, GRACE).kind
    ).toBe("none")
  })

  it("cancels on the platform a reference still payable for an order cancelled in Medusa", () => {
    expect(
      decideSync(medusa({ orderCanceled: true, sessionStatus: "canceled" }), platform("WAITING"), NOW, GRACE)
    ).toEqual({
      kind: "cancel_reference",
    })
  })

  it("expires a reference only after its validity plus the grace period", () => {
    const expiresAt = new Date(NOW.getTime() - GRACE + 1000)
    expect(decideSync(medusa({ expiresAt }), platform("WAITING"), NOW, GRACE)).toEqual({ kind: "record_check" })
    expect(
      decideSync(medusa({ expiresAt: new Date(NOW.getTime() - GRACE - 1) }), platform("WAITING"), NOW, GRACE)
    ).toEqual({ kind: "expire" })
  })

  it("re-issues a waiting reference whose order's amount changed (an order edit), for the collection's new amount", () => {
    const edited = medusa({ amountCents: 4497, collectionAmountCents: 2498 })
    expect(decideSync(edited, platform("WAITING", 4497), NOW, GRACE)).toEqual({ kind: "reissue", amountCents: 2498 })
    expect(decideSync(medusa({ collectionAmountCents: 4497 }), platform("WAITING"), NOW, GRACE)).toEqual({
      kind: "reissue",
      amountCents: 4497,
    })
    expect(decideSync(medusa({ collectionAmountCents: 0 }), platform("WAITING"), NOW, GRACE)).toEqual({
      kind: "reissue",
      amountCents: 0,
    })
    expect(decideSync(medusa({ collectionAmountCents: 2498 }), platform("WAITING"), NOW, GRACE)).toEqual({
      kind: "record_check",
    })
  })

  it("records the old reference's payment when it was paid before the order's amount changed: never lost", () => {
    const edited = medusa({ amountCents: 4497, collectionAmountCents: 2498 })
    expect(decideSync(edited, platform("APPROVED", 4497), NOW, GRACE)).toEqual({ kind: "capture" })
  })

  it("never re-issues on a status it does not know, nor a reference of a cancelled order or without an order", () => {
    const edited = { amountCents: 4497, collectionAmountCents: 2498 }
    expect(decideSync(medusa(edited), platform("SOMETHING_NEW", 4497), NOW, GRACE)).toEqual({ kind: "record_check" })
    expect(decideSync(medusa({ ...edited, orderCanceled: true }), platform("WAITING"), NOW, GRACE)).toEqual({
      kind: "cancel_reference",
    })
    expect(decideSync(medusa({ ...edited, orderId: null }), platform("WAITING"), NOW, GRACE)).toEqual({
      kind: "record_check",
    })
  })

  it("never expires on a status it does not know", () => {
    const long = medusa({ expiresAt: new Date("2026-01-01T00:00:00Z") })
    expect(decideSync(long, platform("SOMETHING_NEW"), NOW, GRACE)).toEqual({ kind: "record_check" })
  })
})

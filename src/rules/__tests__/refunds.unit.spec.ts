import {
  decideRefund,
  platformRefunds,
  unrecordedPlatformRefunds,
  type PlatformRefundState,
  type RefundRequest,
} from "../refunds"

const paid = (
  refunds: { key: string; cents: number }[] = [],
  refundedCents = refunds.reduce((t, r) => t + r.cents, 0)
): PlatformRefundState => ({
  amountCents: 2498,
  refundedCents,
  refunds,
})
const ask = (cents: number, extra: Partial<RefundRequest> = {}): RefundRequest => ({
  cents,
  key: "k-this",
  recordedKeys: [],
  ...extra,
})

describe("decideRefund: already made only by this refund's own key, never by totals", () => {
  it.each<[string, RefundRequest, PlatformRefundState, string]>([
    ["a first refund is made", ask(1000), paid(), "make"],
    [
      "a second refund of the same amount while the first is on the platform is made too",
      ask(1000),
      paid([{ key: "k-other", cents: 1000 }]),
      "make",
    ],
    [
      "the platform holds this refund already (an answer lost): success, nothing sent",
      ask(1000),
      paid([{ key: "k-this", cents: 1000 }]),
      "already_made",
    ],
    ["up to what the platform can still refund is made", ask(1498), paid([{ key: "k-other", cents: 1000 }]), "make"],
    [
      "one cent more than the platform can still refund is refused",
      ask(1499),
      paid([{ key: "k-other", cents: 1000 }]),
      "refuse",
    ],
    ["more than was paid is refused", ask(2499), paid(), "refuse"],
    [
      "a refund the platform refunded outside our records still counts against the limit",
      ask(1000),
      paid([], 2000),
      "refuse",
    ],
    ["a platform that does not say its amounts decides itself", ask(1000), { refunds: [] }, "make"],
    [
      "recording a platform refund is a record, not a second refund",
      ask(2498, { recording: { key: "k-cancel", cents: 2498 } }),
      paid([{ key: "k-cancel", cents: 2498 }]),
      "record",
    ],
    [
      "recording a platform refund already recorded is refused",
      ask(2498, { recording: { key: "k-cancel", cents: 2498 }, recordedKeys: ["k-cancel"] }),
      paid([{ key: "k-cancel", cents: 2498 }]),
      "refuse",
    ],
    [
      "recording a platform refund of another amount is refused",
      ask(1000, { recording: { key: "k-cancel", cents: 1000 } }),
      paid([{ key: "k-cancel", cents: 2498 }]),
      "refuse",
    ],
    [
      "recording a refund the platform does not hold is refused",
      ask(1000, { recording: { key: "k-none", cents: 1000 } }),
      paid(),
      "refuse",
    ],
  ])("%s", (_name, request, platform, kind) => {
    expect(decideRefund(request, platform).kind).toBe(kind)
  })
})

describe("the platform's refunds, by key", () => {
  it("reads only keyed refund records with an amount, whatever the spelling of the type", () => {
    expect(
      platformRefunds([
        { type: "PAYMENT", amountCents: 2498, idempotencyKey: "k-pay" },
        { type: "refund", amountCents: 500, idempotencyKey: "k-1" },
        { type: "REFUND", amountCents: 300 },
        { type: "REFUND", idempotencyKey: "k-2" },
      ])
    ).toEqual([{ key: "k-1", cents: 500 }])
  })

  it("finds the refunds Medusa has no refund for", () => {
    const platform = [
      { key: "k-1", cents: 500 },
      { key: "k-2", cents: 300 },
    ]
    expect(unrecordedPlatformRefunds(platform, ["k-1"])).toEqual([{ key: "k-2", cents: 300 }])
    expect(unrecordedPlatformRefunds(platform, ["k-1", "k-2"])).toEqual([])
  })
})

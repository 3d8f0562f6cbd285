import fc from "fast-check"
import { refundKeyFor } from "../identifiers"
import {
  answeredRefundKeys,
  decideRefund,
  INTERRUPTED_REFUND_AFTER_MS,
  interruptedRefunds,
  type MedusaRefunds,
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

/** Two refunds the platform made (1,500 cents in all), as the rows below record or hold them. */
const TWO_PLATFORM_REFUNDS = [
  { key: "k-1", cents: 1000 },
  { key: "k-2", cents: 500 },
]

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
      ask(2498, { recording: [{ key: "k-cancel", cents: 2498 }] }),
      paid([{ key: "k-cancel", cents: 2498 }]),
      "record",
    ],
    [
      "recording a platform refund already recorded is refused",
      ask(2498, { recording: [{ key: "k-cancel", cents: 2498 }], recordedKeys: ["k-cancel"] }),
      paid([{ key: "k-cancel", cents: 2498 }]),
      "refuse",
    ],
    [
      "recording a platform refund of another amount is refused",
      ask(1000, { recording: [{ key: "k-cancel", cents: 1000 }] }),
      paid([{ key: "k-cancel", cents: 2498 }]),
      "refuse",
    ],
    [
      "recording two platform refunds at once is one record of their sum",
      ask(1500, { recording: TWO_PLATFORM_REFUNDS }),
      paid(TWO_PLATFORM_REFUNDS),
      "record",
    ],
    [
      "recording two platform refunds for another sum is refused",
      ask(1000, { recording: TWO_PLATFORM_REFUNDS }),
      paid(TWO_PLATFORM_REFUNDS),
      "refuse",
    ],
    [
      "recording a refund the platform does not hold is refused",
      ask(1000, { recording: [{ key: "k-none", cents: 1000 }] }),
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

describe("interruptedRefunds: a Medusa refund cut short before the platform made it, only when both sides agree", () => {
  const PAYMENT = "3f2c1d4e-0000-4000-8000-000000000001"
  const NOW = new Date("2026-11-26T12:00:00Z")
  const old = new Date(NOW.getTime() - INTERRUPTED_REFUND_AFTER_MS).toISOString()
  const young = new Date(NOW.getTime() - INTERRUPTED_REFUND_AFTER_MS + 1).toISOString()
  const refund = (id: string, cents: number, createdAt = old) => ({ id, cents, createdAt })
  const keyOf = (id: string) => refundKeyFor(PAYMENT, id)
  /** Medusa's side; `answeredIds`: the refunds whose call the platform answered with success (their key recorded). */
  const medusa = (
    refunds: ReturnType<typeof refund>[],
    recordingIds: string[] = [],
    platformKeys: string[] = [],
    answeredIds: string[] = []
  ): MedusaRefunds => {
    const recordedKeys = [...platformKeys, ...answeredIds.map(keyOf)]
    return {
      refpayPaymentId: PAYMENT,
      refunds,
      recordingIds,
      keys: [...refunds.map((r) => keyOf(r.id)), ...recordedKeys],
      recordedKeys,
    }
  }
  const onPlatform = (
    refunds: { key: string; cents: number }[],
    refundedCents = refunds.reduce((t, r) => t + r.cents, 0)
  ) => ({
    refundedCents,
    refunds,
  })

  it.each<[string, MedusaRefunds, Pick<PlatformRefundState, "refundedCents" | "refunds">, string[]]>([
    [
      "the process died during the call: the platform holds nothing",
      medusa([refund("R1", 500)]),
      onPlatform([]),
      ["R1"],
    ],
    ["still on its way (younger than the wait): kept", medusa([refund("R1", 500, young)]), onPlatform([]), []],
    [
      "made (its key is on the platform): kept",
      medusa([refund("R1", 500)]),
      onPlatform([{ key: keyOf("R1"), cents: 500 }]),
      [],
    ],
    [
      "the platform's refunded total is unknown: kept",
      medusa([refund("R1", 500)]),
      { refundedCents: undefined, refunds: [] },
      [],
    ],
    ["a platform that lists no keys, with the same total: kept", medusa([refund("R1", 500)]), onPlatform([], 500), []],
    [
      "a recording of a platform refund (its id is recorded): kept",
      medusa([refund("R1", 300)], ["R1"], ["K1"]),
      onPlatform([{ key: "K1", cents: 300 }]),
      [],
    ],
    [
      "a recording from before recording ids (its platform key recorded): kept",
      medusa([refund("R1", 300)], [], ["K1"]),
      onPlatform([{ key: "K1", cents: 300 }]),
      [],
    ],
    [
      "a recording cut short (its platform refund still unrecorded): removed, to be recorded again",
      medusa([refund("R1", 300)]),
      onPlatform([{ key: "K1", cents: 300 }]),
      ["R1"],
    ],
    [
      "cut short, then made again by the owner: only the one cut short",
      medusa([refund("R1", 500), refund("R2", 500)]),
      onPlatform([{ key: keyOf("R2"), cents: 500 }]),
      ["R1"],
    ],
    [
      "the platform refunded more than its keys explain: kept (the totals do not agree)",
      medusa([refund("R1", 500)]),
      onPlatform([], 200),
      [],
    ],
    [
      "answered with success, then absent from a lagging read that says nothing refunded: kept",
      medusa([refund("R1", 500)], [], [], ["R1"]),
      onPlatform([], 0),
      [],
    ],
    [
      "answered with success, absent from a read that lists another refund: kept",
      medusa([refund("R1", 500), refund("R2", 300)], [], [], ["R1", "R2"]),
      onPlatform([{ key: keyOf("R2"), cents: 300 }]),
      [],
    ],
    [
      "answered with success and absent, beside one cut short: only the one cut short",
      medusa([refund("R1", 500), refund("R2", 300)], [], [], ["R1"]),
      onPlatform([], 0),
      ["R2"],
    ],
  ])("%s", (_, medusaSide, platform, expected) => {
    expect(interruptedRefunds(medusaSide, platform, NOW).map((r) => r.id)).toEqual(expected)
  })

  it("never takes a refund made on the platform or a recording, whatever the platform lists (property)", () => {
    const kinds = fc.array(
      fc.record({ kind: fc.constantFrom("made", "recorded", "cut"), cents: fc.integer({ min: 1, max: 5000 }) }),
      {
        maxLength: 6,
      }
    )
    fc.assert(
      fc.property(kinds, fc.boolean(), (rows, listsKeys) => {
        const refunds = rows.map((row, i) => refund(`R${i}`, row.cents))
        const platformRows = rows.flatMap((row, i) =>
          row.kind === "made"
            ? [{ key: keyOf(`R${i}`), cents: row.cents }]
            : row.kind === "recorded"
              ? [{ key: `K${i}`, cents: row.cents }]
              : []
        )
        const recorded = rows.flatMap((row, i) => (row.kind === "recorded" ? [`R${i}`] : []))
        const side = medusa(
          refunds,
          recorded,
          recorded.map((id) => `K${id.slice(1)}`)
        )
        const platform = onPlatform(
          listsKeys ? platformRows : [],
          platformRows.reduce((t, r) => t + r.cents, 0)
        )
        const taken = interruptedRefunds(side, platform, NOW).map((r) => r.id)
        const cut = rows.flatMap((row, i) => (row.kind === "cut" ? [`R${i}`] : []))
        expect(taken.every((id) => cut.includes(id))).toBe(true)
        if (listsKeys) expect(taken).toEqual(cut)
      }),
      { seed: 2611, numRuns: 300 }
    )
  })

  it("never takes a refund whose call the platform answered with success, whatever later reads list or total (property)", () => {
    const kinds = fc.array(
      fc.record({
        kind: fc.constantFrom("answered", "recorded", "cut"),
        cents: fc.integer({ min: 1, max: 5000 }),
        listed: fc.boolean(),
        old: fc.boolean(),
      }),
      { maxLength: 6 }
    )
    fc.assert(
      fc.property(kinds, fc.integer({ min: 0, max: 100 }), fc.boolean(), (rows, percent, totalOfListed) => {
        const refunds = rows.map((row, i) => refund(`R${i}`, row.cents, row.old ? old : young))
        const idsOf = (kind: string) => rows.flatMap((row, i) => (row.kind === kind ? [`R${i}`] : []))
        const recorded = idsOf("recorded")
        const side = medusa(
          refunds,
          recorded,
          recorded.map((id) => `K${id.slice(1)}`),
          idsOf("answered")
        )
        // The platform lists each answered or recorded refund, or not (a lagging read, an asynchronous refund).
        const listed = rows.flatMap((row, i) =>
          !row.listed || row.kind === "cut"
            ? []
            : [{ key: row.kind === "recorded" ? `K${i}` : keyOf(`R${i}`), cents: row.cents }]
        )
        const listedCents = listed.reduce((t, r) => t + r.cents, 0)
        const made = rows.filter((row) => row.kind !== "cut").reduce((t, row) => t + row.cents, 0)
        const platform = onPlatform(listed, totalOfListed ? listedCents : Math.round((made * percent) / 100))
        const taken = interruptedRefunds(side, platform, NOW).map((r) => r.id)
        const cutAndOld = rows.flatMap((row, i) => (row.kind === "cut" && row.old ? [`R${i}`] : []))
        expect(taken.filter((id) => idsOf("answered").includes(id))).toEqual([])
        expect(taken.filter((id) => !cutAndOld.includes(id))).toEqual([])
        // Whatever the answered refunds' absence, a refund cut short is still found when the totals agree.
        if (totalOfListed) expect(taken).toEqual(cutAndOld)
      }),
      { seed: 4026, numRuns: 500 }
    )
  })
})

describe("answeredRefundKeys: the provider records the key of each refund the platform answered with success", () => {
  it.each<[string, string[] | null | undefined, string[]]>([
    ["a first answer on a payment without recorded keys", null, ["k-this"]],
    ["beside the platform refunds already recorded", ["k-cancel"], ["k-cancel", "k-this"]],
    ["an answer recorded already is recorded once", ["k-this"], ["k-this"]],
  ])("%s", (_name, recorded, expected) => {
    expect(answeredRefundKeys(recorded, "k-this")).toEqual(expected)
  })
})

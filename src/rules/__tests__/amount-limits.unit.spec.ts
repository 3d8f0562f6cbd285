import { amountLimitMessage, amountLimitRefusal, type AmountLimitRefusal, type AmountLimits } from "../amount-limits"

const NBSP = /\u00a0/g
const DEFAULTS: AmountLimits = { minCents: 100, maxCents: 9_999_999 }
const ONE_AMOUNT: AmountLimits = { minCents: 2498, maxCents: 2498 }

describe("amountLimitRefusal: whether a reference may be issued for an amount, both bounds inclusive", () => {
  it.each<[string, number, AmountLimits, AmountLimitRefusal | null]>([
    ["one cent", 1, DEFAULTS, { kind: "below_minimum", amountCents: 1, limitCents: 100 }],
    ["one cent below the minimum", 99, DEFAULTS, { kind: "below_minimum", amountCents: 99, limitCents: 100 }],
    ["exactly the minimum", 100, DEFAULTS, null],
    ["one cent above the minimum", 101, DEFAULTS, null],
    ["an ordinary cart", 2498, DEFAULTS, null],
    ["one cent below the maximum", 9_999_998, DEFAULTS, null],
    ["exactly the maximum", 9_999_999, DEFAULTS, null],
    [
      "one cent above the maximum",
      10_000_000,
      DEFAULTS,
      { kind: "above_maximum", amountCents: 10_000_000, limitCents: 9_999_999 },
    ],
    ["the one amount a one-amount range allows", 2498, ONE_AMOUNT, null],
    [
      "a cent below a one-amount range",
      2497,
      ONE_AMOUNT,
      { kind: "below_minimum", amountCents: 2497, limitCents: 2498 },
    ],
    [
      "a cent above a one-amount range",
      2499,
      ONE_AMOUNT,
      { kind: "above_maximum", amountCents: 2499, limitCents: 2498 },
    ],
  ])("%s (%p cents)", (_name, amountCents, limits, refusal) => {
    expect(amountLimitRefusal(amountCents, limits)).toEqual(refusal)
  })
})

describe("amountLimitMessage: one sentence with both amounts in euros, as the reader writes them", () => {
  it.each<[AmountLimitRefusal, string, string]>([
    [
      { kind: "below_minimum", amountCents: 50, limitCents: 100 },
      "Uma referência REFPAY tem de ser de pelo menos 1,00 €, e este valor é de 0,50 €.",
      "A REFPAY reference must be for at least €1.00, and this amount is €0.50.",
    ],
    [
      { kind: "above_maximum", amountCents: 12_000_000, limitCents: 9_999_999 },
      "Uma referência REFPAY não pode ser de mais de 99 999,99 €, e este valor é de 120 000,00 €.",
      "A REFPAY reference cannot be for more than €99,999.99, and this amount is €120,000.00.",
    ],
  ])("%o in Portuguese and in English", (refusal, pt, en) => {
    expect(amountLimitMessage(refusal, "pt").replace(NBSP, " ")).toBe(pt)
    expect(amountLimitMessage(refusal, "en")).toBe(en)
  })
})

import { paymentCents } from "../money"

const raw = (value: string) => ({ raw_amount: { value, precision: 20 } })

describe("payment cents (admin rows, the refund of a cancelled order's payment, the sync's refunds)", () => {
  it.each([
    ["nothing captured", {}, { captured_cents: 0, refunded_cents: 0, refundable_cents: 0 }],
    [
      "captured, nothing refunded",
      { captures: [raw("24.98")], refunds: [] },
      { captured_cents: 2498, refunded_cents: 0, refundable_cents: 2498 },
    ],
    [
      "partly refunded",
      { captures: [raw("24.98")], refunds: [raw("8.32")] },
      { captured_cents: 2498, refunded_cents: 832, refundable_cents: 1666 },
    ],
    [
      "refunded in two parts",
      { captures: [raw("24.98")], refunds: [raw("8.32"), raw("16.66")] },
      { captured_cents: 2498, refunded_cents: 2498, refundable_cents: 0 },
    ],
    [
      "each amount rounded to the cent once, then summed",
      { captures: [raw("0.105"), raw("0.105")] },
      { captured_cents: 22, refunded_cents: 0, refundable_cents: 22 },
    ],
    ["null lists", { captures: null, refunds: null }, { captured_cents: 0, refunded_cents: 0, refundable_cents: 0 }],
  ])("%s", (_name, payment, expected) => {
    expect(paymentCents(payment)).toEqual(expected)
  })

  it("never answers a negative refundable amount", () => {
    expect(paymentCents({ captures: [raw("10")], refunds: [raw("12")] }).refundable_cents).toBe(0)
  })
})

import { BigNumber } from "@medusajs/framework/utils"
import { formatEuros, fromCents, toCents, toWholeCents } from "../money"

describe("toCents: Medusa major units to REFPAY integer cents", () => {
  it.each([
    [19.99, 1999],
    [0.1 + 0.2, 30],
    [1234567.89, 123456789],
    [0.01, 1],
    [1, 100],
    [20.5, 2050],
    [1.005, 101], // float 1.005 is 1.00499999...; the decimal value rounds half up
    [2.675, 268],
    [10.004, 1000],
    [10.005, 1001],
    [99999.995, 10000000],
    ["19.99", 1999],
    ["0.015", 2],
  ])("converts %p to %p cents", (amount, cents) => {
    expect(toCents(amount as number)).toBe(cents)
  })

  it("reads Medusa's BigNumber and raw { value, precision } amounts", () => {
    expect(toCents(new BigNumber(19.99))).toBe(1999)
    expect(toCents({ value: "10", precision: 20 } as never)).toBe(1000)
    expect(toCents({ value: "33.333333333333333333", precision: 20 } as never)).toBe(3333)
  })

  it.each([[0], [-1], [0.004], [Number.NaN], [Number.POSITIVE_INFINITY], ["abc"]])("refuses %p", (amount) => {
    expect(() => toCents(amount as number)).toThrow(/REFPAY/)
  })

  it("refuses amounts beyond a safe integer of cents", () => {
    expect(() => toCents("900719925474099.28")).toThrow(/too large/)
  })
})

describe("fromCents and formatEuros", () => {
  it("turns cents back into exact major units", () => {
    expect(fromCents(1999)).toBe(19.99)
    expect(fromCents(123456789)).toBe(1234567.89)
    expect(fromCents(1)).toBe(0.01)
  })

  it("formats as a Portuguese shopper reads an amount", () => {
    expect(formatEuros(1999).replace(/\s/g, " ")).toBe("19,99 €")
    expect(formatEuros(123456789).replace(/\s/g, " ")).toMatch(/^1.?234.?567,89 €$/)
  })
})

describe("toWholeCents: a refund's amount, never rounded", () => {
  it.each([
    [12.49, 1249],
    ["24.98", 2498],
    [{ value: "10", precision: 20 }, 1000],
  ])("%p EUR is %p cents", (amount, cents) => {
    expect(toWholeCents(amount as number)).toBe(cents)
  })

  it.each([12.495, "0.001", 10.005])("refuses %p EUR (a fraction of a cent)", (amount) => {
    expect(() => toWholeCents(amount as number)).toThrow(/fraction of a cent/)
  })
})

import { MathBN, MedusaError } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"

/** bignumber.js rounding mode 4: half away from zero, the commercial rounding used for euro amounts. */
const ROUND_HALF_UP = 4
const CENTS_PER_EURO = 100

/**
 * The one place a Medusa amount (major units: 19.99 means 19.99 EUR) becomes REFPAY's integer cents.
 *
 * Medusa hands amounts over as numbers, strings, BigNumber objects or raw `{ value, precision }` objects, and its
 * totals may carry more than two decimals (taxes, discounts). We go through decimal arithmetic, never float
 * multiplication (19.99 * 100 is 1998.9999999999998), and round half up to the cent: 10.005 EUR is 1001 cents.
 * Anything that is not a finite, positive amount that fits a safe integer of cents is refused: the platform would
 * refuse it anyway, and a silently wrong amount is the worst bug a payment plugin can have.
 */
export function toCents(amount: BigNumberInput): number {
  const major = MathBN.convert(amount)
  if (!major.isFinite()) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `REFPAY: the amount ${String(major)} is not a number`)
  }
  const cents = major.times(CENTS_PER_EURO).decimalPlaces(0, ROUND_HALF_UP)
  if (cents.lte(0)) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `REFPAY: the amount must be at least 0.01 EUR, got ${major.toFixed()} EUR`
    )
  }
  const value = cents.toNumber()
  if (!Number.isSafeInteger(value)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `REFPAY: the amount ${major.toFixed()} EUR is too large`)
  }
  return value
}

/**
 * A refund's amount in cents, which must be whole: the platform moves whole cents, and rounding each of two refunds
 * of 12.495 EUR up would send back a cent more than was paid. A fraction of a cent is refused, never rounded.
 */
export function toWholeCents(amount: BigNumberInput): number {
  const major = MathBN.convert(amount)
  if (major.isFinite() && !major.times(CENTS_PER_EURO).isInteger()) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `REFPAY refunds whole cents only: ${major.toFixed()} EUR has a fraction of a cent`
    )
  }
  return toCents(major)
}

/**
 * What a payment collection asks for, in cents: like `toCents`, except that nothing due (Medusa sets an unpaid
 * collection to 0 when an edit removes everything) is 0 instead of an error.
 */
export function dueCents(amount: BigNumberInput): number {
  return MathBN.lte(MathBN.convert(amount), 0) ? 0 : toCents(amount)
}

/** Cents back to Medusa's major units, for amounts reported to Medusa (exact: cents / 100 has two decimals). */
export function fromCents(cents: number): number {
  return MathBN.convert(cents).div(CENTS_PER_EURO).toNumber()
}

const EURO_LOCALES = { pt: "pt-PT", en: "en-IE" } as const

/** "19,99 €" as a Portuguese shopper reads it, "€19.99" in English (Ireland's euro format). */
export function formatEuros(cents: number, language: keyof typeof EURO_LOCALES = "pt"): string {
  return new Intl.NumberFormat(EURO_LOCALES[language], { style: "currency", currency: "EUR" }).format(fromCents(cents))
}

/** A Medusa Payment's captures and refunds as `query.graph` returns them (`captures.raw_amount`, `refunds.raw_amount`). */
export interface PaymentAmounts {
  captures?: { raw_amount: unknown }[] | null
  refunds?: { raw_amount: unknown }[] | null
}

/**
 * What Medusa holds of a payment, in cents: every capture and refund converted once (`toCents`, from the exact stored
 * amount), then summed as integers. Refundable is what was captured and not refunded yet, never below zero. The
 * admin rows show it, the refund of a cancelled order's payment refuses anything above it, the sync compares the
 * platform's refunds with it.
 */
export function paymentCents(payment: PaymentAmounts): {
  captured_cents: number
  refunded_cents: number
  refundable_cents: number
} {
  const captured = sumCents(payment.captures)
  const refunded = sumCents(payment.refunds)
  return { captured_cents: captured, refunded_cents: refunded, refundable_cents: Math.max(0, captured - refunded) }
}

function sumCents(entries: { raw_amount: unknown }[] | null | undefined): number {
  return (entries ?? []).reduce((total, entry) => total + toCents(entry.raw_amount as BigNumberInput), 0)
}

import { formatEuros } from "./money"

/**
 * The amounts one REFPAY account issues references for, in cents, both bounds included: the provider's
 * `settings.minAmountCents` and `settings.maxAmountCents` (REFPAY_MIN_AMOUNT, REFPAY_MAX_AMOUNT). The platform spec
 * states no limits, but Multibanco-style networks refuse amounts outside their own range, and a reference refused by
 * the network would only be found out after the order exists.
 */
export interface AmountLimits {
  minCents: number
  maxCents: number
}

/** Why no reference may be issued for an amount, with both amounts for the message. */
export type AmountLimitRefusal = { kind: "below_minimum" | "above_maximum"; amountCents: number; limitCents: number }

type Kind = AmountLimitRefusal["kind"]

/** Each bound: the limit it reads and which side of it is refused. The first bound crossed is the refusal. */
const BOUNDS: {
  kind: Kind
  limit: (limits: AmountLimits) => number
  crossed: (amount: number, limit: number) => boolean
}[] = [
  { kind: "below_minimum", limit: (limits) => limits.minCents, crossed: (amount, limit) => amount < limit },
  { kind: "above_maximum", limit: (limits) => limits.maxCents, crossed: (amount, limit) => amount > limit },
]

/** null when a reference for `amountCents` may be issued under `limits`. */
export function amountLimitRefusal(amountCents: number, limits: AmountLimits): AmountLimitRefusal | null {
  for (const bound of BOUNDS) {
    const limitCents = bound.limit(limits)
    if (bound.crossed(amountCents, limitCents)) return { kind: bound.kind, amountCents, limitCents }
  }
  return null
}

type Sentence = (limit: string, amount: string) => string

/**
 * Worded for any reader (a shopper at checkout, a shop owner asking for a new reference), so it says what the
 * limit is and what the amount is, and leaves what to do next to the caller.
 */
const SENTENCES: Record<"pt" | "en", Record<Kind, Sentence>> = {
  pt: {
    below_minimum: (limit, amount) =>
      `Uma referência REFPAY tem de ser de pelo menos ${limit}, e este valor é de ${amount}.`,
    above_maximum: (limit, amount) =>
      `Uma referência REFPAY não pode ser de mais de ${limit}, e este valor é de ${amount}.`,
  },
  en: {
    below_minimum: (limit, amount) => `A REFPAY reference must be for at least ${limit}, and this amount is ${amount}.`,
    above_maximum: (limit, amount) =>
      `A REFPAY reference cannot be for more than ${limit}, and this amount is ${amount}.`,
  },
}

/** One sentence for a shopper or an admin, in Portuguese or English, with the amounts in euros ("0,50 €" / "€0.50"). */
export function amountLimitMessage(refusal: AmountLimitRefusal, language: "pt" | "en"): string {
  const euros = (cents: number) => formatEuros(cents, language)
  return SENTENCES[language][refusal.kind](euros(refusal.limitCents), euros(refusal.amountCents))
}

import type { RefpayLocale } from "./texts.js"

const dateFormats: Record<RefpayLocale, Intl.DateTimeFormat> = {
  pt: new Intl.DateTimeFormat("pt-PT", dateOptions()),
  en: new Intl.DateTimeFormat("en-GB", dateOptions()),
}

function dateOptions(): Intl.DateTimeFormatOptions {
  return {
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: "Europe/Lisbon",
  }
}

/** The deadline in Lisbon time (the platform's instant stays in `dateTime`); an unparseable value is shown as given. */
export function formatRefpayDeadline(expiresAt: string, locale: RefpayLocale = "pt"): string {
  if (!expiresAt) return "—"
  const instant = new Date(expiresAt)
  return Number.isNaN(instant.getTime()) ? expiresAt : dateFormats[locale].format(instant)
}

/**
 * An amount Medusa's store routes give in cents, written as a Portuguese shop writes amounts ("19,99 €", with a
 * no-break space), whatever the page's language: the figure must match the one on the ATM and the e-mail.
 */
export function formatRefpayCents(cents: number, currencyCode = "eur"): string {
  return new Intl.NumberFormat("pt-PT", { style: "currency", currency: currencyCode.toUpperCase() }).format(cents / 100)
}

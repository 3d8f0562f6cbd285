import { useMemo } from "react"
import { useTranslation } from "react-i18next"

export type Translate = ReturnType<typeof useTranslation>["t"]

/**
 * The key of a count's form: `<key>.one` for exactly one, `<key>.other` otherwise (both languages the plugin speaks
 * agree on that). Chosen here rather than by i18next's `count` plurals: the dashboard's "ptPT" is no BCP 47 tag,
 * Intl.PluralRules refuses it, and i18next then falls back to the English forms.
 */
export function countKey(key: string, count: number): string {
  return `${key}.${count === 1 ? "one" : "other"}`
}

/** The Intl locale of a dashboard language: European Portuguese, or English for any language the plugin lacks. */
export function intlLocale(language: string | undefined): string {
  return language === "ptPT" ? "pt-PT" : "en"
}

/** Money, dates and "in 5 h" / "3 min ago" in the admin's current language: the one place that formats them. */
export interface Formatters {
  dateTime: (iso: string | null | undefined) => string
  relativeTime: (iso: string | null | undefined, now?: number) => string
  /** Cents as the currency's amount ("12,30 €" in Portuguese, "€12.30" in English). */
  cents: (cents: number, currency?: string) => string
}

export function useFormat(): Formatters {
  const { t, i18n } = useTranslation()
  const locale = intlLocale(i18n.language)
  return useMemo(
    () => ({
      dateTime: (iso) => formatDateTime(iso, locale),
      relativeTime: (iso, now) => formatRelativeTime(t, iso, now),
      cents: (cents, currency = "EUR") =>
        new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100),
    }),
    [t, locale]
  )
}

function formatDateTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return "-"
  const time = Date.parse(iso)
  return Number.isFinite(time) ? new Date(time).toLocaleString(locale) : iso
}

const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000

/** Short units the owner reads at a glance; days only from two days on, so their count is never one. */
function formatRelativeTime(t: Translate, iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return ""
  const time = Date.parse(iso)
  if (!Number.isFinite(time)) return ""
  const diff = time - now
  const abs = Math.abs(diff)
  const [value, unit] =
    abs < MINUTE
      ? [Math.round(abs / 1000), "s"]
      : abs < HOUR
        ? [Math.round(abs / MINUTE), "min"]
        : abs < 2 * DAY
          ? [Math.round(abs / HOUR), "h"]
          : [Math.round(abs / DAY), "days"]
  const options = { value, unit: t(`refpay.time.units.${unit}`) }
  return diff >= 0 ? t("refpay.time.future", options) : t("refpay.time.past", options)
}

import { Heading, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { Conversion, CountAndAmount, Recovered } from "../../../../medusa-compat/medusa-tables/owner-numbers"
import { useFormat } from "../../../lib/format"
import { DailyChart, TimeToPayChart } from "./numbers-charts"

const OUTCOMES = ["issued", "paid", "waiting", "expired", "renewed", "cancelled"] as const

/** How many of the period's references were paid, waited, expired, were renewed or cancelled, per day, and how fast. */
export const ConversionPanel = ({ conversion }: { conversion: Conversion }) => {
  const { t, i18n } = useTranslation()
  const share = new Intl.NumberFormat(i18n.language === "ptPT" ? "pt-PT" : "en", {
    style: "percent",
    maximumFractionDigits: 1,
  }).format(conversion.paid_share)
  return (
    <div className="flex flex-col gap-y-4 px-6 py-4" data-testid="refpay-numbers-conversion">
      <div className="flex items-center justify-between">
        <Heading level="h3">{t("refpay.numbers.conversion.heading")}</Heading>
        <Text size="small" weight="plus" data-testid="refpay-numbers-paid-share">
          {t("refpay.numbers.conversion.paidShare", { share })}
        </Text>
      </div>
      <Figures
        entries={OUTCOMES.map((outcome) => [outcome, t(`refpay.numbers.conversion.${outcome}`), conversion[outcome]])}
      />
      <DailyChart perDay={conversion.per_day} />
      <div className="flex flex-col gap-y-2">
        <Heading level="h3">{t("refpay.numbers.timeToPay.heading")}</Heading>
        <TimeToPayChart buckets={conversion.time_to_pay} />
      </div>
    </div>
  )
}

const RECOVERED = [
  "paid_after_reminder",
  "paid_on_renewed_reference",
  "late_payments_refunded",
  "late_payments_recorded",
] as const

/** What the plugin recovered: payments after a reminder, on a renewed reference, and late payments. */
export const RecoveredPanel = ({ recovered }: { recovered: Recovered }) => {
  const { t } = useTranslation()
  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="refpay-numbers-recovered">
      <Heading level="h3">{t("refpay.numbers.recovered.heading")}</Heading>
      <Figures entries={RECOVERED.map((kind) => [kind, t(`refpay.numbers.recovered.${kind}`), recovered[kind]])} />
    </div>
  )
}

/** A row of figures: a count and its amount under each label. */
const Figures = ({ entries }: { entries: [string, string, CountAndAmount][] }) => {
  const format = useFormat()
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-3">
      {entries.map(([key, label, figure]) => (
        <div
          key={key}
          className="bg-ui-bg-subtle rounded-md px-3 py-2"
          data-testid={`refpay-numbers-${key}`}
          data-count={figure.count}
          data-amount-cents={figure.amount_cents}
        >
          <dt>
            <Text size="xsmall" className="text-ui-fg-subtle">
              {label}
            </Text>
          </dt>
          <dd>
            <Text size="large" weight="plus" className="tabular-nums">
              {figure.count}
            </Text>
            <Text size="xsmall" className="text-ui-fg-subtle tabular-nums">
              {format.cents(figure.amount_cents)}
            </Text>
          </dd>
        </div>
      ))}
    </dl>
  )
}

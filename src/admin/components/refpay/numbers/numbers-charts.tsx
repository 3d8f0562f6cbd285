import { Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { Conversion } from "../../../../medusa-compat/medusa-tables/owner-numbers"

const HEIGHT = 120
const BAR_GAP = 2
/**
 * The admin theme's own colours (CSS variables of Medusa's UI, one value in the light theme, another in the dark),
 * set inline: a plugin's admin build only has the utility classes the dashboard itself uses.
 */
const ISSUED = "var(--fg-muted)"
const PAID = "var(--fg-interactive)"
const TRACK = "var(--bg-component)"

/**
 * References issued and payments received per day of the period, side by side: plain SVG (no charting library: two
 * series of bars is all it draws) in the admin's own colours, so it reads in the light and the dark theme. Each day
 * carries its numbers (`data-*`, and a tooltip) as the route gave them.
 */
export const DailyChart = ({ perDay }: { perDay: Conversion["per_day"] }) => {
  const { t } = useTranslation()
  const highest = Math.max(1, ...perDay.flatMap((d) => [d.issued, d.paid]))
  const slot = 100 / Math.max(1, perDay.length)
  const bar = (value: number) => (value / highest) * (HEIGHT - 4)
  return (
    <figure className="flex flex-col gap-y-2" data-testid="refpay-numbers-daily">
      <Legend />
      <svg viewBox={`0 0 100 ${HEIGHT}`} preserveAspectRatio="none" className="h-32 w-full" role="img">
        <title>{t("refpay.numbers.chart.heading")}</title>
        {perDay.map((day, i) => (
          <g
            key={day.day}
            data-day={day.day}
            data-issued={day.issued}
            data-paid={day.paid}
            data-testid="refpay-numbers-day"
          >
            <title>{t("refpay.numbers.chart.bar", { day: day.day, issued: day.issued, paid: day.paid })}</title>
            <Bar colour={ISSUED} x={i * slot + BAR_GAP / 10} width={slot / 2 - BAR_GAP / 10} height={bar(day.issued)} />
            <Bar colour={PAID} x={i * slot + slot / 2} width={slot / 2 - BAR_GAP / 10} height={bar(day.paid)} />
          </g>
        ))}
      </svg>
      <div className="text-ui-fg-subtle flex justify-between">
        <Text size="xsmall">{perDay[0]?.day}</Text>
        <Text size="xsmall">{perDay[perDay.length - 1]?.day}</Text>
      </div>
    </figure>
  )
}

const Bar = ({ colour, x, width, height }: { colour: string; x: number; width: number; height: number }) => (
  <rect style={{ fill: colour }} x={x} width={width} y={HEIGHT - height} height={height} />
)

const Legend = () => {
  const { t } = useTranslation()
  return (
    <div className="flex gap-x-4">
      <LegendItem colour={ISSUED} label={t("refpay.numbers.chart.issued")} />
      <LegendItem colour={PAID} label={t("refpay.numbers.chart.paid")} />
    </div>
  )
}

const LegendItem = ({ colour, label }: { colour: string; label: string }) => (
  <span className="flex items-center gap-x-2">
    <span style={{ display: "inline-block", width: 10, height: 10, borderRadius: 2, background: colour }} aria-hidden />
    <Text size="xsmall" className="text-ui-fg-subtle">
      {label}
    </Text>
  </span>
)

/** How many of the period's paid references took each number of days, as horizontal bars with their counts. */
export const TimeToPayChart = ({ buckets }: { buckets: Conversion["time_to_pay"] }) => {
  const { t } = useTranslation()
  const highest = Math.max(1, ...buckets.map((b) => b.count))
  const label = (days: string) =>
    days === "0" ? t("refpay.numbers.timeToPay.sameDay") : t("refpay.numbers.timeToPay.days", { days })
  return (
    <ul className="flex flex-col gap-y-1" data-testid="refpay-numbers-time-to-pay">
      {buckets.map((bucket) => (
        <li
          key={bucket.days}
          style={{ display: "grid", gridTemplateColumns: "120px 1fr 40px", alignItems: "center", columnGap: 8 }}
          data-days={bucket.days}
          data-count={bucket.count}
          title={t("refpay.numbers.timeToPay.bar", { label: label(bucket.days), count: bucket.count })}
        >
          <Text size="xsmall" className="text-ui-fg-subtle">
            {label(bucket.days)}
          </Text>
          <span style={{ display: "block", height: 10, borderRadius: 2, background: TRACK }}>
            <span
              style={{
                display: "block",
                height: 10,
                borderRadius: 2,
                background: PAID,
                width: `${(bucket.count / highest) * 100}%`,
              }}
            />
          </span>
          <Text size="xsmall" className="text-right tabular-nums">
            {bucket.count}
          </Text>
        </li>
      ))}
    </ul>
  )
}

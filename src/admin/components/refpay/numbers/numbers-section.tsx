import { ArrowDownTray } from "@medusajs/icons"
import { Alert, Button, Container, Heading, Input, Label, Text } from "@medusajs/ui"
import { useState, type FormEvent } from "react"
import { useTranslation } from "react-i18next"
import type { Conversion, CountAndAmount, Recovered } from "../../../../queries/owner-numbers"
import { errorMessage } from "../../../lib/errors"
import { useFormat } from "../../../lib/format"
import { refpayApi, type NumbersQuery } from "../../../lib/refpay-api"
import { useOwnerNumbers } from "../../../lib/refpay-queries"
import { DailyChart, TimeToPayChart } from "./numbers-charts"
import { ReconciliationPanel } from "./reconciliation-panel"
import { SectionHeader } from "../section-header"

type Chosen = { from?: string; to?: string }

/**
 * "How many of them pay, and how fast?", and the month's reconciliation: the owner's numbers of one registration for
 * a period of Lisbon days (the last 30 by default), and the accountant's CSV of the same period.
 */
export const NumbersSection = ({ providerId }: { providerId: string }) => {
  const { t } = useTranslation()
  const [chosen, setChosen] = useState<Chosen>({})
  const query: NumbersQuery = { providerId, ...chosen }
  const conversion = useOwnerNumbers("conversion", query)
  const recovered = useOwnerNumbers("recovered", query)
  const reconciliation = useOwnerNumbers("reconciliation", query)
  const error = conversion.error ?? recovered.error ?? reconciliation.error
  const period = conversion.data?.period

  return (
    <Container className="divide-y p-0" data-testid="refpay-numbers">
      <SectionHeader heading={t("refpay.numbers.heading")} intro={t("refpay.numbers.intro")}>
        {period && (
          <Text size="small" className="mt-1" data-testid="refpay-numbers-period">
            {t("refpay.numbers.period", { from: period.from, to: period.to })}
          </Text>
        )}
      </SectionHeader>
      <PeriodForm shown={period} query={query} onShow={setChosen} />
      {error && (
        <div className="px-6 py-4">
          <Alert variant="error">{t("refpay.numbers.loadError", { message: errorMessage(error) })}</Alert>
        </div>
      )}
      {conversion.data && <ConversionPanel conversion={conversion.data.conversion} />}
      {recovered.data && <RecoveredPanel recovered={recovered.data.recovered} />}
      {reconciliation.data && <ReconciliationPanel reconciliation={reconciliation.data.reconciliation} />}
    </Container>
  )
}

/** The period's first and last day, and the accountant's CSV of the period shown. */
const PeriodForm = ({
  shown,
  query,
  onShow,
}: {
  shown?: { from: string; to: string }
  query: NumbersQuery
  onShow: (chosen: Chosen) => void
}) => {
  const { t } = useTranslation()
  const [from, setFrom] = useState("")
  const [to, setTo] = useState("")
  const [exportError, setExportError] = useState<string | null>(null)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    onShow({ from: from || undefined, to: to || undefined })
  }
  const download = async () => {
    setExportError(null)
    try {
      const { blob, fileName } = await refpayApi.numbersCsv(query)
      const link = document.createElement("a")
      link.href = URL.createObjectURL(blob)
      link.download = fileName
      link.click()
      URL.revokeObjectURL(link.href)
    } catch (error) {
      setExportError(t("refpay.numbers.exportFailed", { message: errorMessage(error) }))
    }
  }

  return (
    <form className="flex flex-wrap items-end gap-3 px-6 py-4" onSubmit={submit}>
      <DayField
        id="refpay-numbers-from"
        label={t("refpay.numbers.from")}
        value={from || shown?.from}
        onChange={setFrom}
      />
      <DayField id="refpay-numbers-to" label={t("refpay.numbers.to")} value={to || shown?.to} onChange={setTo} />
      <Button size="small" variant="secondary" type="submit" data-testid="refpay-numbers-show">
        {t("refpay.numbers.show")}
      </Button>
      <Button size="small" variant="transparent" type="button" onClick={download} data-testid="refpay-numbers-csv">
        <ArrowDownTray />
        {t("refpay.numbers.exportCsv")}
      </Button>
      {exportError && (
        <Text size="small" className="text-ui-fg-error w-full">
          {exportError}
        </Text>
      )}
    </form>
  )
}

const DayField = (props: { id: string; label: string; value?: string; onChange: (value: string) => void }) => (
  <div className="flex flex-col gap-y-1">
    <Label size="xsmall" htmlFor={props.id}>
      {props.label}
    </Label>
    <Input
      id={props.id}
      size="small"
      type="date"
      style={{ width: 160 }}
      value={props.value ?? ""}
      onChange={(event) => props.onChange(event.target.value)}
    />
  </div>
)

const OUTCOMES = ["issued", "paid", "waiting", "expired", "renewed", "cancelled"] as const

const ConversionPanel = ({ conversion }: { conversion: Conversion }) => {
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

const RecoveredPanel = ({ recovered }: { recovered: Recovered }) => {
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

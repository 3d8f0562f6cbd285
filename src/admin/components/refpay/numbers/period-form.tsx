import { ArrowDownTray } from "@medusajs/icons"
import { Button, Input, Label, Text } from "@medusajs/ui"
import { useState, type FormEvent } from "react"
import { useTranslation } from "react-i18next"
import { errorMessage } from "../../../lib/errors"
import { refpayApi, type NumbersQuery } from "../../../lib/refpay-api"

export type Chosen = { from?: string; to?: string }

/** The period's first and last day, and the accountant's CSV of the period shown. */
export const PeriodForm = ({
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

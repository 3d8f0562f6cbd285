import { Alert, Container, Text } from "@medusajs/ui"
import { useState } from "react"
import { useTranslation } from "react-i18next"
import { errorMessage } from "../../../lib/errors"
import type { NumbersQuery } from "../../../lib/refpay-api"
import { useOwnerNumbers } from "../../../lib/refpay-queries"
import { ConversionPanel, RecoveredPanel } from "./figure-panels"
import { PeriodForm, type Chosen } from "./period-form"
import { ReconciliationPanel } from "./reconciliation-panel"
import { SectionHeader } from "../section-header"

/**
 * "How many of them pay, and how fast?", and the month's reconciliation: the owner's numbers of one account for
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

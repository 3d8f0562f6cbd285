import { Heading, Table, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { Link } from "react-router-dom"
import type { Reconciliation } from "../../../../medusa-compat/medusa-tables/reconciliation"
import { countKey, useFormat } from "../../../lib/format"

/**
 * Per day of payment, Medusa's captured and refunded totals against the platform's approved and refunded ones (days
 * without a payment left out), then every payment where they differ, each with a link to its order: none hidden.
 */
export const ReconciliationPanel = ({ reconciliation }: { reconciliation: Reconciliation }) => {
  const { t } = useTranslation()
  const format = useFormat()
  const days = reconciliation.per_day.filter(
    (d) => d.medusa_captured_cents || d.medusa_refunded_cents || d.platform_approved_cents || d.platform_refunded_cents
  )
  const { differences } = reconciliation
  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="refpay-numbers-reconciliation">
      <Heading level="h3">{t("refpay.numbers.reconciliation.heading")}</Heading>
      {days.length === 0 ? (
        <Text size="small" className="text-ui-fg-subtle">
          {t("refpay.numbers.reconciliation.noPayments")}
        </Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              {(["day", "medusaCaptured", "platformApproved", "medusaRefunded", "platformRefunded"] as const).map(
                (column) => (
                  <Table.HeaderCell key={column}>{t(`refpay.numbers.reconciliation.${column}`)}</Table.HeaderCell>
                )
              )}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {days.map((day) => (
              <Table.Row key={day.day} data-testid="refpay-numbers-reconciliation-day" data-day={day.day}>
                <Table.Cell>{day.day}</Table.Cell>
                <Table.Cell>{format.cents(day.medusa_captured_cents)}</Table.Cell>
                <Table.Cell>{format.cents(day.platform_approved_cents)}</Table.Cell>
                <Table.Cell>{format.cents(day.medusa_refunded_cents)}</Table.Cell>
                <Table.Cell>{format.cents(day.platform_refunded_cents)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
      {differences.length === 0 ? (
        days.length > 0 && (
          <Text size="small" className="text-ui-fg-subtle">
            {t("refpay.numbers.reconciliation.agree")}
          </Text>
        )
      ) : (
        <div className="flex flex-col gap-y-1" data-testid="refpay-numbers-differences">
          <Text size="small" weight="plus">
            {t(countKey("refpay.numbers.reconciliation.differences", differences.length), {
              count: differences.length,
            })}
          </Text>
          <ul className="flex flex-col gap-y-1">
            {differences.map((d) => (
              <li key={d.session_id} className="flex flex-wrap gap-x-3" data-testid="refpay-numbers-difference">
                {d.order_id ? (
                  <Link to={`/orders/${d.order_id}`} className="text-ui-fg-interactive txt-compact-small">
                    {t("refpay.common.orderNumber", { number: d.order_display_id ?? d.order_id })}
                  </Link>
                ) : (
                  <Text size="small">-</Text>
                )}
                <Text size="small" className="font-mono">
                  {d.entity} / {d.reference}
                </Text>
                <Text size="small">
                  {t("refpay.numbers.reconciliation.medusaCaptured")} {format.cents(d.medusa_captured_cents)} ·{" "}
                  {t("refpay.numbers.reconciliation.platformApproved")}{" "}
                  {d.platform_approved_cents === null ? "-" : format.cents(d.platform_approved_cents)} ·{" "}
                  {t("refpay.numbers.reconciliation.medusaRefunded")} {format.cents(d.medusa_refunded_cents)} ·{" "}
                  {t("refpay.numbers.reconciliation.platformRefunded")} {format.cents(d.platform_refunded_cents)}
                </Text>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}

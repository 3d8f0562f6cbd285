import { Badge, Table, Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import { useTranslation } from "react-i18next"
import { Link } from "react-router-dom"
import type { AdminPaymentRow } from "../../../api/admin/refpay/payment-rows"

/** The columns every list of REFPAY payments starts with; the list's own headers follow. */
export const PaymentHeaderCells = () => {
  const { t } = useTranslation()
  return (
    <>
      <Table.HeaderCell>{t("refpay.payments.columns.order")}</Table.HeaderCell>
      <Table.HeaderCell>{t("refpay.payments.columns.entityReference")}</Table.HeaderCell>
      <Table.HeaderCell className="text-right">{t("refpay.payments.columns.amount")}</Table.HeaderCell>
    </>
  )
}

/**
 * A payment in a list: which order, which entity and reference, how much (the cells under PaymentHeaderCells), then
 * the list's own cells. The row carries the order id, which the browser tests read.
 */
export const PaymentRow = ({
  row,
  testId,
  showAccount,
  children,
}: {
  row: AdminPaymentRow
  testId: string
  showAccount: boolean
  children: ReactNode
}) => (
  <Table.Row data-testid={testId} data-order-id={row.order?.id ?? ""}>
    <Table.Cell>
      <OrderCell row={row} />
    </Table.Cell>
    <Table.Cell>
      <ReferenceCell row={row} showAccount={showAccount} />
    </Table.Cell>
    <Table.Cell className="text-right">
      <Text size="small" leading="compact">
        {row.amount_display}
      </Text>
    </Table.Cell>
    {children}
  </Table.Row>
)

/** The order a REFPAY payment belongs to, linked to its page, with the customer's e-mail to call or write. */
const OrderCell = ({ row }: { row: AdminPaymentRow }) => {
  const { t } = useTranslation()
  if (!row.order) {
    return (
      <Text size="small" className="text-ui-fg-muted">
        {t("refpay.payments.noOrder")}
      </Text>
    )
  }
  return (
    <div className="flex flex-col">
      <div className="flex items-center gap-x-2">
        <Link
          to={`/orders/${row.order.id}`}
          className="text-ui-fg-interactive txt-compact-small-plus hover:text-ui-fg-interactive-hover"
          data-testid="refpay-order-link"
        >
          {t("refpay.common.orderNumber", { number: row.order.display_id ?? row.order.id })}
        </Link>
        {row.order.status === "canceled" && (
          <Badge size="2xsmall" color="grey">
            {t("refpay.payments.cancelled")}
          </Badge>
        )}
      </div>
      {row.order.email && (
        <Text size="xsmall" leading="compact" className="text-ui-fg-muted">
          {row.order.email}
        </Text>
      )}
    </div>
  )
}

/** Entity and reference exactly as the platform returned them: strings, leading zeros kept, never regrouped. */
const ReferenceCell = ({ row, showAccount }: { row: AdminPaymentRow; showAccount: boolean }) => {
  const { t } = useTranslation()
  const account = row.provider_id.replace(/^pp_refpay_/, "")
  return (
    <div className="flex flex-col">
      <Text size="small" leading="compact" className="font-mono" data-testid="refpay-row-reference">
        {row.entity} / {row.reference}
      </Text>
      <Text size="xsmall" leading="compact" className="text-ui-fg-muted">
        {row.platform_status}
        {showAccount ? ` · ${t("refpay.payments.account", { account })}` : ""}
      </Text>
    </div>
  )
}

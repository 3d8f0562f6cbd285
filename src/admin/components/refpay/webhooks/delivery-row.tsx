import { StatusBadge, Table, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { Link } from "react-router-dom"
import type { DeliveryView } from "../../../../api/admin/refpay/webhooks/deliveries/delivery-view"
import { useFormat } from "../../../lib/format"
import { REFPAY_HOOK_PATH } from "./route-name"
import { DELIVERY_STATUS_COLORS } from "./delivery-status"

/** One delivery: when, which event, whose payment, through which route, and what became of it. */
export const DeliveryRow = ({ delivery: d }: { delivery: DeliveryView }) => {
  const { t } = useTranslation()
  const { dateTime } = useFormat()
  return (
    <Table.Row data-testid="refpay-delivery-row" data-status={d.status} data-payment-id={d.payment_id}>
      <Table.Cell>
        <Text size="small" leading="compact">
          {dateTime(d.received_at)}
        </Text>
      </Table.Cell>
      <Table.Cell>
        <Text size="small" leading="compact" className="font-mono">
          {d.event_type.replace(/_TRANSACTIONS$/, "")}
        </Text>
      </Table.Cell>
      <Table.Cell>
        <DeliveryPayment delivery={d} />
      </Table.Cell>
      <Table.Cell>
        <Text size="small" leading="compact">
          {d.route === "refpay" ? REFPAY_HOOK_PATH : t("refpay.common.routes.medusa")}
        </Text>
      </Table.Cell>
      <Table.Cell>
        <div className="flex items-center gap-x-2">
          <StatusBadge color={DELIVERY_STATUS_COLORS[d.status]}>
            {t(`refpay.webhooks.deliveries.statuses.${d.status}`)}
          </StatusBadge>
          {d.deliveries > 1 && (
            <Text size="xsmall" className="text-ui-fg-muted">
              ×{d.deliveries}
            </Text>
          )}
        </div>
      </Table.Cell>
    </Table.Row>
  )
}

/** The order the payment belongs to (linked), or why there is none; then the payment's id, shortened. */
const DeliveryPayment = ({ delivery: d }: { delivery: DeliveryView }) => {
  const { t } = useTranslation()
  return (
    <div className="flex flex-col">
      {d.order ? (
        <Link
          to={`/orders/${d.order.id}`}
          className="text-ui-fg-interactive txt-compact-small hover:text-ui-fg-interactive-hover"
        >
          {t("refpay.common.orderNumber", { number: d.order.display_id ?? d.order.id })}
        </Link>
      ) : (
        <Text size="small" leading="compact" className="text-ui-fg-muted">
          {t(d.status === "test" ? "refpay.webhooks.deliveries.testPayment" : "refpay.webhooks.deliveries.noOrder")}
        </Text>
      )}
      <Text size="xsmall" leading="compact" className="text-ui-fg-muted font-mono" title={d.payment_id}>
        {d.payment_id.slice(0, 8)}…
      </Text>
    </div>
  )
}

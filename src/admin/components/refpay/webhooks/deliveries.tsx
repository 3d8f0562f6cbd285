import { Alert, Select, Table, Text } from "@medusajs/ui"
import { useState } from "react"
import { useTranslation } from "react-i18next"
import { errorMessage } from "../../../lib/errors"
import type { DeliveryStatus } from "../../../lib/refpay-api"
import { useDeliveries } from "../../../lib/refpay-queries"
import { EmptyRow, Pager } from "../paged-list"
import { DeliveryRow } from "./delivery-row"
import { DELIVERY_STATUSES } from "./delivery-status"

const PAGE_SIZE = 50

type Filter = DeliveryStatus | "all"

/** The latest deliveries, newest first, filtered by what became of them. */
export const Deliveries = () => {
  const { t } = useTranslation()
  const [status, setStatus] = useState<Filter>("all")
  const [page, setPage] = useState(0)
  const { data, error } = useDeliveries(status, page, PAGE_SIZE)
  const column = (key: string) => t(`refpay.webhooks.deliveries.columns.${key}`)
  return (
    <div className="flex flex-col" data-testid="refpay-deliveries">
      <DeliveriesHeading
        status={status}
        onStatus={(value) => {
          setStatus(value)
          setPage(0)
        }}
      />
      {error && (
        <div className="px-6 pb-4">
          <Alert variant="error">{t("refpay.webhooks.deliveries.loadError", { message: errorMessage(error) })}</Alert>
        </div>
      )}
      <Table>
        <Table.Header>
          <Table.Row>
            {["received", "event", "payment", "route", "outcome"].map((key) => (
              <Table.HeaderCell key={key}>{column(key)}</Table.HeaderCell>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {data?.deliveries.map((delivery) => (
            <DeliveryRow key={delivery.id} delivery={delivery} />
          ))}
          {data && data.deliveries.length === 0 && (
            <EmptyRow columns={5} testId="refpay-deliveries-empty">
              {t(status === "all" ? "refpay.webhooks.deliveries.emptyAll" : "refpay.webhooks.deliveries.emptyFiltered")}
            </EmptyRow>
          )}
        </Table.Body>
      </Table>
      {data && <Pager count={data.count} pageSize={PAGE_SIZE} page={page} setPage={setPage} />}
    </div>
  )
}

const DeliveriesHeading = ({ status, onStatus }: { status: Filter; onStatus: (status: Filter) => void }) => {
  const { t } = useTranslation()
  return (
    <div className="flex items-center justify-between gap-x-4 px-6 py-4">
      <div>
        <Text size="small" weight="plus">
          {t("refpay.webhooks.deliveries.heading")}
        </Text>
        <Text size="xsmall" className="text-ui-fg-muted">
          {t("refpay.webhooks.deliveries.note")}
        </Text>
      </div>
      <div className="w-[200px]">
        <Select size="small" value={status} onValueChange={(value) => onStatus(value as Filter)}>
          <Select.Trigger data-testid="refpay-deliveries-filter">
            <Select.Value />
          </Select.Trigger>
          <Select.Content>
            <Select.Item value="all">{t("refpay.webhooks.deliveries.allOutcomes")}</Select.Item>
            {DELIVERY_STATUSES.map((key) => (
              <Select.Item key={key} value={key}>
                {t(`refpay.webhooks.deliveries.statuses.${key}`)}
              </Select.Item>
            ))}
          </Select.Content>
        </Select>
      </div>
    </div>
  )
}

import { Alert, Button, Table, Text } from "@medusajs/ui"
import { useState } from "react"
import { useTranslation } from "react-i18next"
import type { AttentionKind } from "../../../../rules/attention-kinds"
import type { AdminPaymentRow } from "../../../../api/admin/refpay/payment-rows"
import { errorMessage } from "../../../lib/errors"
import { useFormat } from "../../../lib/format"
import { useAttentionList } from "../../../lib/refpay-queries"
import { EmptyRow, Pager } from "../paged-list"
import { PaymentHeaderCells, PaymentRow } from "../payment-cells"
import { Detail, DETAIL_OF, heldCents } from "./attention-detail"
import { useConfirmedRefund } from "./use-confirmed-refund"

const PAGE_SIZE = 20

/** One tab's payments, a page at a time; payments paid after cancellation can be refunded from here. */
export const AttentionList = ({ kind, several }: { kind: AttentionKind; several: boolean }) => {
  const { t } = useTranslation()
  const [page, setPage] = useState(0)
  const { data, error } = useAttentionList(kind, page, PAGE_SIZE)
  const refund = useConfirmedRefund()
  const refundable = kind === "paid_after_cancellation" || kind === "paid_after_session_deleted"

  return (
    <div className="flex flex-col" data-testid={`refpay-attention-list-${kind}`}>
      <Text size="small" className="text-ui-fg-subtle px-6 pb-3">
        {t(`refpay.attention.kinds.${kind}.explain`)}
      </Text>
      {error && (
        <div className="px-6 pb-4">
          <Alert variant="error">{t("refpay.attention.listError", { message: errorMessage(error) })}</Alert>
        </div>
      )}
      <Table>
        <Table.Header>
          <Table.Row>
            <PaymentHeaderCells />
            <Table.HeaderCell>{t(`refpay.attention.kinds.${kind}.column`)}</Table.HeaderCell>
            {refundable && <Table.HeaderCell className="text-right">{t("refpay.attention.action")}</Table.HeaderCell>}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {data?.payments.map((row) => (
            <AttentionRow
              key={row.payment_session_id}
              kind={kind}
              row={row}
              several={several}
              onRefund={refundable ? refund : undefined}
            />
          ))}
          {data && data.payments.length === 0 && (
            <EmptyRow columns={refundable ? 5 : 4} testId="refpay-attention-empty">
              {t("refpay.attention.empty")}
            </EmptyRow>
          )}
        </Table.Body>
      </Table>
      {data && <Pager count={data.count} pageSize={PAGE_SIZE} page={page} setPage={setPage} />}
    </div>
  )
}

const AttentionRow = ({
  kind,
  row,
  several,
  onRefund,
}: {
  kind: AttentionKind
  row: AdminPaymentRow
  several: boolean
  /** Only for the payments that may be refunded from the list. */
  onRefund?: (row: AdminPaymentRow) => void
}) => {
  const { t } = useTranslation()
  const format = useFormat()
  return (
    <PaymentRow row={row} testId="refpay-attention-row" showAccount={several}>
      <Table.Cell>
        <Detail {...DETAIL_OF[kind](row, t, format)} />
      </Table.Cell>
      {onRefund && (
        <Table.Cell className="text-right">
          <Button size="small" variant="secondary" onClick={() => onRefund(row)} data-testid="refpay-refund">
            {t("refpay.attention.refund.button", { amount: format.cents(heldCents(row)) })}
          </Button>
        </Table.Cell>
      )}
    </PaymentRow>
  )
}

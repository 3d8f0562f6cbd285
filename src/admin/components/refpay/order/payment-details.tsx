import { Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { useFormat } from "../../../lib/format"
import type { AdminRefpayView } from "../../../lib/refpay-api"

/** Entity, reference and amount exactly as the server sent them; then the platform's status and the times. */
export const PaymentDetails = ({ view }: { view: AdminRefpayView }) => {
  const { t } = useTranslation()
  const { dateTime } = useFormat()
  return (
    <dl className="text-ui-fg-subtle grid grid-cols-2 gap-y-2 px-6 py-4">
      <Detail label={t("refpay.order.fields.entity")} value={view.entity} testId="refpay-entity" mono />
      <Detail label={t("refpay.order.fields.reference")} value={view.reference} testId="refpay-reference" mono />
      <Detail label={t("refpay.order.fields.amount")} value={view.amount_display} testId="refpay-amount" />
      <Detail
        label={t("refpay.order.fields.platformStatus")}
        value={view.platform_status}
        testId="refpay-platform-status"
      />
      <Detail
        label={t(view.expired ? "refpay.order.fields.expired" : "refpay.order.fields.payBy")}
        value={dateTime(view.expires_at)}
        testId="refpay-expires-at"
      />
      <Detail
        label={t("refpay.order.fields.lastChecked")}
        value={dateTime(view.checked_at)}
        testId="refpay-checked-at"
      />
    </dl>
  )
}

const Detail = ({ label, value, testId, mono }: { label: string; value: string; testId: string; mono?: boolean }) => (
  <>
    <dt>
      <Text size="small" leading="compact" weight="plus">
        {label}
      </Text>
    </dt>
    <dd>
      <Text size="small" leading="compact" className={mono ? "font-mono" : undefined} data-testid={testId}>
        {value || "-"}
      </Text>
    </dd>
  </>
)

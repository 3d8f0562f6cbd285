import { Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { RefpayPaymentView } from "../../../../rules/payment-view"
import { useFormat } from "../../../lib/format"
import type { AdminRefpayView } from "../../../lib/refpay-api"

/** Entity, reference and amount exactly as the server sent them; then the platform's status and the times. */
export const PaymentDetails = ({ view }: { view: AdminRefpayView }) => {
  const { t } = useTranslation()
  const { dateTime } = useFormat()
  return (
    <dl className="text-ui-fg-subtle grid grid-cols-2 gap-y-2 px-6 py-4">
      <ReferenceFields view={view} testIdPrefix="refpay" />
      <Detail
        label={t("refpay.order.fields.platformStatus")}
        value={view.platform_status}
        testId="refpay-platform-status"
      />
      <PayBy view={view} testId="refpay-expires-at" />
      <Detail
        label={t("refpay.order.fields.lastChecked")}
        value={dateTime(view.checked_at)}
        testId="refpay-checked-at"
      />
    </dl>
  )
}

/** What the customer pays with, exactly as the platform returned it: strings, leading zeros kept, never regrouped. */
export const ReferenceFields = ({ view, testIdPrefix }: { view: RefpayPaymentView; testIdPrefix: string }) => {
  const { t } = useTranslation()
  return (
    <>
      <Detail label={t("refpay.order.fields.entity")} value={view.entity} testId={`${testIdPrefix}-entity`} mono />
      <Detail
        label={t("refpay.order.fields.reference")}
        value={view.reference}
        testId={`${testIdPrefix}-reference`}
        mono
      />
      <Detail label={t("refpay.order.fields.amount")} value={view.amount_display} testId={`${testIdPrefix}-amount`} />
    </>
  )
}

/** The deadline to pay by, or when the reference expired unpaid. */
export const PayBy = ({ view, testId }: { view: RefpayPaymentView; testId: string }) => {
  const { t } = useTranslation()
  const { dateTime } = useFormat()
  return (
    <Detail
      label={t(view.expired ? "refpay.order.fields.expired" : "refpay.order.fields.payBy")}
      value={dateTime(view.expires_at)}
      testId={testId}
    />
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

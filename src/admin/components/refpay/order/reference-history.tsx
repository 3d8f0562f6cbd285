import { Badge, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { RefpayPaymentView } from "../../../../rules/payment-view"
import { describePayment } from "./payment-state"

/** Every reference the order had, oldest first: shown once a reference was renewed. */
export const ReferenceHistory = ({ history }: { history: RefpayPaymentView[] }) => {
  const { t } = useTranslation()
  return (
    <div className="px-6 py-4" data-testid="refpay-history">
      <Text size="small" leading="compact" weight="plus">
        {t("refpay.order.history")}
      </Text>
      <ul className="mt-2 flex flex-col gap-y-1">
        {history.map((item) => {
          const state = describePayment(item, t)
          return (
            <li
              key={item.payment_session_id}
              className="flex items-center justify-between gap-x-2"
              data-testid="refpay-history-item"
            >
              <Text size="small" leading="compact" className="font-mono">
                {item.entity} / {item.reference}
              </Text>
              <Badge size="2xsmall" color={state.color}>
                {state.label}
              </Badge>
            </li>
          )
        })}
      </ul>
    </div>
  )
}

import { Alert } from "@medusajs/ui"
import type { ReactNode } from "react"
import { useTranslation } from "react-i18next"
import { countKey, useFormat } from "../../../lib/format"
import type { AdminRefpayView } from "../../../lib/refpay-api"
import type { PaymentState } from "./payment-state"

/** What the shop owner must act on before anything else: money after a cancellation, failed checks, do not ship. */
export const OrderAlerts = ({ view, state }: { view: AdminRefpayView; state: PaymentState }) => {
  const { t } = useTranslation()
  const { dateTime } = useFormat()
  const check = view.last_check
  return (
    <>
      {view.paid_after_cancellation && (
        <AlertRow variant="error" testId="refpay-paid-after-cancellation">
          {view.paid_after_cancellation_at
            ? t("refpay.order.alerts.paidAfterCancellationAt", { when: dateTime(view.paid_after_cancellation_at) })
            : t("refpay.order.alerts.paidAfterCancellation")}
        </AlertRow>
      )}
      {check?.outcome === "unknown_payment" && (
        <AlertRow variant="error" testId="refpay-unknown-to-platform">
          {t("refpay.order.alerts.unknownToPlatform", { when: dateTime(check.checked_at) })}
        </AlertRow>
      )}
      {check?.outcome === "platform_error" && (
        <AlertRow variant="warning" testId="refpay-check-failed">
          {t(countKey("refpay.order.alerts.checkFailed", Math.max(check.failures, 1)), { count: check.failures })}
        </AlertRow>
      )}
      {state.warning && !view.paid_after_cancellation && (
        <AlertRow variant="warning" testId="refpay-do-not-ship">
          {state.warning}
        </AlertRow>
      )}
    </>
  )
}

const AlertRow = ({
  variant,
  testId,
  children,
}: {
  variant: "error" | "warning"
  testId: string
  children: ReactNode
}) => (
  <div className="px-6 py-4">
    <Alert variant={variant} data-testid={testId}>
      {children}
    </Alert>
  </div>
)

import type { AdminOrder } from "@medusajs/framework/types"
import { Button, toast } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { errorMessage } from "../../../lib/errors"
import type { AdminRefpayView } from "../../../lib/refpay-api"
import { useCheckOrderNow, useIssueNewReference } from "../../../lib/refpay-queries"
import { describePayment } from "./payment-state"

/** The widget's buttons: a new reference when every one of the order's expired, and "Check status now". */
export const OrderActions = ({ order, view }: { order: AdminOrder; view: AdminRefpayView }) => (
  <div className="flex justify-end gap-x-2 px-6 py-4">
    {canIssueNewReference(order, view) && <IssueNewReferenceButton orderId={order.id} />}
    <CheckNowButton orderId={order.id} />
  </div>
)

/** The same sync a webhook or the poll job runs, on demand. */
const CheckNowButton = ({ orderId }: { orderId: string }) => {
  const { t } = useTranslation()
  const check = useCheckOrderNow(orderId)
  const checkNow = () =>
    check.mutate(undefined, {
      onSuccess: (view) =>
        toast.success(t("refpay.order.toasts.checked"), {
          description: t("refpay.order.toasts.checkedDescription", {
            status: describePayment(view, t).label,
            platform: view.platform_status,
          }),
        }),
      onError: (error) => toast.error(t("refpay.order.toasts.checkFailed"), { description: errorMessage(error) }),
    })
  return (
    <Button
      size="small"
      variant="secondary"
      onClick={checkNow}
      isLoading={check.isPending}
      data-testid="refpay-check-now"
    >
      {t("refpay.order.actions.checkNow")}
    </Button>
  )
}

/** Asked first: the customer receives the new reference by e-mail. */
const IssueNewReferenceButton = ({ orderId }: { orderId: string }) => {
  const { t } = useTranslation()
  const issue = useIssueNewReference(orderId)
  const issueNewReference = () => {
    if (!window.confirm(t("refpay.order.actions.confirmNewReference"))) return
    issue.mutate(undefined, {
      onSuccess: (view) =>
        toast.success(t("refpay.order.toasts.issued"), {
          description: t("refpay.order.toasts.issuedDescription", { entity: view.entity, reference: view.reference }),
        }),
      onError: (error) => toast.error(t("refpay.order.toasts.issueFailed"), { description: errorMessage(error) }),
    })
  }
  return (
    <Button
      size="small"
      variant="secondary"
      onClick={issueNewReference}
      isLoading={issue.isPending}
      data-testid="refpay-issue-new-reference"
    >
      {t("refpay.order.actions.issueNewReference")}
    </Button>
  )
}

/** An open order whose references all expired or were cancelled unpaid (the server checks it again). */
function canIssueNewReference(order: AdminOrder, view: AdminRefpayView): boolean {
  const all = view.history?.length ? view.history : [view]
  return order.status !== "canceled" && all.every((item) => item.status === "cancelled")
}

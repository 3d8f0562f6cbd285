import { Button, toast } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { errorMessage } from "../../../lib/errors"
import { useFormat } from "../../../lib/format"
import { useRequestPayment } from "../../../lib/refpay-queries"

/**
 * "Request payment by REFPAY" for a collection's amount, or, without a collection, for what the order owes (the
 * server then opens a collection for it). Asked first: the customer receives the reference by e-mail.
 */
export const RequestPaymentButton = ({
  orderId,
  collectionId,
  amountCents,
}: {
  orderId: string
  collectionId?: string
  amountCents: number
}) => {
  const { t } = useTranslation()
  const { cents } = useFormat()
  const request = useRequestPayment(orderId)
  // Awaited rather than given callbacks: the new reference re-renders the panel without this button (its collection
  // is no longer open), and a mutation's callbacks do not run once their button is gone.
  const requestPayment = async () => {
    if (!window.confirm(t("refpay.order.actions.confirmRequestPayment", { amount: cents(amountCents) }))) return
    try {
      const { issued, refpay } = await request.mutateAsync(collectionId)
      toast.success(t(issued ? "refpay.order.toasts.requested" : "refpay.order.toasts.alreadyRequested"), {
        description: refpay
          ? t("refpay.order.toasts.requestedDescription", {
              entity: refpay.entity,
              reference: refpay.reference,
              amount: refpay.amount_display,
            })
          : undefined,
      })
    } catch (error) {
      toast.error(t("refpay.order.toasts.requestFailed"), { description: errorMessage(error) })
    }
  }
  return (
    <Button
      size="small"
      variant="secondary"
      onClick={requestPayment}
      isLoading={request.isPending}
      data-testid="refpay-request-payment"
    >
      {t("refpay.order.actions.requestPayment")}
    </Button>
  )
}

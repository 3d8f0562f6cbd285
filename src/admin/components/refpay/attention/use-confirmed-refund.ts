import { toast, usePrompt } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { AdminPaymentRow } from "../../../../api/admin/refpay/payment-rows"
import { errorMessage } from "../../../lib/errors"
import { useFormat } from "../../../lib/format"
import { useRefundLatePayment } from "../../../lib/refpay-queries"
import { heldCents } from "./attention-detail"

/**
 * Refunds a payment made after its order's cancellation, once the shop owner confirmed the amount and the reference
 * (money leaves the shop and cannot come back); the lists and counts are asked again when it went through.
 */
export function useConfirmedRefund(): (row: AdminPaymentRow) => Promise<void> {
  const { t } = useTranslation()
  const { cents } = useFormat()
  const prompt = usePrompt()
  const refund = useRefundLatePayment()

  return async (row) => {
    const amount = cents(heldCents(row))
    const confirmed = await prompt({
      title: t("refpay.attention.refund.title", { amount }),
      description: t("refpay.attention.refund.description", {
        amount,
        order: row.order?.display_id ?? row.order?.id,
        reference: row.reference,
      }),
      confirmText: t("refpay.attention.refund.confirm", { amount }),
      cancelText: t("refpay.attention.refund.cancel"),
      variant: "confirmation",
    })
    if (!confirmed) return
    try {
      await refund.mutateAsync(row.payment_session_id)
      toast.success(t("refpay.attention.refund.done"), {
        description: t("refpay.attention.refund.doneDescription", { amount, order: row.order?.display_id ?? "" }),
      })
    } catch (error) {
      toast.error(t("refpay.attention.refund.failed"), { description: errorMessage(error) })
    }
  }
}

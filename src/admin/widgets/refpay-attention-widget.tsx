import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { ExclamationCircle } from "@medusajs/icons"
import { Container, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import type { AttentionKind } from "../../admin-backend/attention"
import { useRefpayGet } from "../lib/use-refpay-admin"

const LABELS: Record<AttentionKind, [string, string]> = {
  paid_after_cancellation: ["paid after cancellation (to refund)", "paid after cancellation (to refund)"],
  refund_mismatch: ["refunded total differing from REFPAY's", "refunded totals differing from REFPAY's"],
  amount_mismatch: ["amount mismatch", "amount mismatches"],
  unknown_payment: ["reference unknown to REFPAY", "references unknown to REFPAY"],
  platform_error: ["failed status check", "failed status checks"],
  expiring: ["reference expiring within 24 h", "references expiring within 24 h"],
}

/**
 * Above the order list: one line when REFPAY payments need the shop owner (paid after cancellation, amount
 * mismatches, ...), linking to the REFPAY page. Renders nothing otherwise.
 */
const RefpayAttentionWidget = () => {
  // A failed load shows nothing: the line is a pointer to the REFPAY page, not a place for errors.
  const counts = useRefpayGet<{ counts: Record<AttentionKind, number> }>("/admin/refpay/attention").data?.counts

  const parts = counts
    ? (Object.keys(LABELS) as AttentionKind[])
        .filter((k) => counts[k] > 0)
        .map((k) => `${counts[k]} ${LABELS[k][counts[k] === 1 ? 0 : 1]}`)
    : []
  if (parts.length === 0) return null
  return (
    <Container className="flex items-center gap-x-3 px-6 py-3" data-testid="refpay-attention-widget">
      <ExclamationCircle className="text-ui-tag-orange-icon shrink-0" />
      <Text size="small" className="flex-1">
        <span className="font-medium">REFPAY:</span> {parts.join(", ")}.
      </Text>
      <Link
        to="/settings/refpay"
        className="text-ui-fg-interactive txt-compact-small-plus whitespace-nowrap hover:text-ui-fg-interactive-hover"
      >
        Review
      </Link>
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "order.list.before",
})

export default RefpayAttentionWidget

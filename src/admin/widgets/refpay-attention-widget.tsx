import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { ExclamationCircle } from "@medusajs/icons"
import { Container, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { Link } from "react-router-dom"
import { ATTENTION_KINDS_MONEY_FIRST } from "../../rules/attention-kinds"
import { countKey } from "../lib/format"
import { useAttentionCounts } from "../lib/refpay-queries"

/**
 * Above the order list: one line when REFPAY payments need the shop owner (paid after cancellation, amount
 * mismatches, ...), linking to the REFPAY page. Renders nothing otherwise.
 */
const RefpayAttentionWidget = () => {
  const { t } = useTranslation()
  // A failed load shows nothing: the line is a pointer to the REFPAY page, not a place for errors.
  const counts = useAttentionCounts().data

  const parts = counts
    ? ATTENTION_KINDS_MONEY_FIRST.filter((kind) => counts[kind] > 0).map((kind) =>
        t(countKey(`refpay.banner.kinds.${kind}`, counts[kind]), { count: counts[kind] })
      )
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
        {t("refpay.banner.review")}
      </Link>
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "order.list.before",
})

export default RefpayAttentionWidget

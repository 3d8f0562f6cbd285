import { Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import { useTranslation } from "react-i18next"
import { useFormat } from "../../../lib/format"
import type { WebhooksView } from "../../../lib/refpay-api"
import type { WebhookRoute } from "../../../../rules/webhook"
import { useRouteName } from "./route-name"

/** Deliveries refused or unusable, summed per reason and route: "3 (wrong secret, /hooks/refpay, last 5 min ago)". */
type Tally = { route: WebhookRoute; reason: string; count: number; last: string }

/** The webhooks at a glance: the last delivery, the payments waiting for one, and what was refused or unusable. */
export const WebhookSummary = ({ view }: { view: WebhooksView }) => {
  const { t } = useTranslation()
  const { dateTime, relativeTime } = useFormat()
  const refusals = view.refusals.map((r) => ({ ...r, count: r.refused_count, last: r.last_refused_at }))
  const malformed = view.malformed.map((m) => ({ ...m, count: m.received_count, last: m.last_received_at }))
  return (
    <div className="text-ui-fg-subtle flex flex-wrap gap-x-4 gap-y-1" data-testid="refpay-webhook-summary">
      <SummaryItem label={t("refpay.webhooks.summary.lastDelivery")}>
        {view.last_delivery_at
          ? t("refpay.webhooks.summary.lastDeliveryWhen", {
              when: dateTime(view.last_delivery_at),
              relative: relativeTime(view.last_delivery_at),
            })
          : t("refpay.webhooks.summary.noneYet")}
      </SummaryItem>
      <SummaryItem label={t("refpay.webhooks.summary.waiting")}>{view.waiting_payments}</SummaryItem>
      {refusals.length > 0 && (
        <SummaryItem label={t("refpay.webhooks.summary.refused")} testId="refpay-webhook-refusals">
          <Tallies tallies={refusals} reasons="refpay.webhooks.refusalReasons" />
        </SummaryItem>
      )}
      {malformed.length > 0 && (
        <SummaryItem label={t("refpay.webhooks.summary.malformed")} testId="refpay-webhook-malformed">
          <Tallies tallies={malformed} reasons="refpay.webhooks.malformedReasons" />
        </SummaryItem>
      )}
    </div>
  )
}

const SummaryItem = ({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) => (
  <Text size="small" data-testid={testId}>
    {label} <span className="text-ui-fg-base">{children}</span>
  </Text>
)

/** A reason the admin has no words for is shown as the server names it. */
const Tallies = ({ tallies, reasons }: { tallies: Tally[]; reasons: string }) => {
  const { t } = useTranslation()
  const { relativeTime } = useFormat()
  const routeName = useRouteName()
  const line = (tally: Tally) =>
    t("refpay.webhooks.summary.refusal", {
      count: tally.count,
      reason: t(`${reasons}.${tally.reason}`, { defaultValue: tally.reason }),
      route: routeName(tally.route),
      relative: relativeTime(tally.last),
    })
  return <>{tallies.map(line).join("; ")}</>
}

import { useTranslation } from "react-i18next"
import type { RefpaySettingsView } from "../../../../api/admin/refpay/settings/settings-view"
import { countKey } from "../../../lib/format"
import { Group, Row, Value } from "./setting-rows"

type Settings = { settings: RefpaySettingsView }

/** The configuration's words: a row's label, a value's text, and a count of a unit ("3 days", "1 hour"). */
function useConfigurationText() {
  const { t } = useTranslation()
  return {
    t,
    row: (key: string) => t(`refpay.configuration.rows.${key}`),
    value: (key: string, options?: Record<string, unknown>) => t(`refpay.configuration.values.${key}`, options),
    count: (count: number, unit: "day" | "hour" | "minute" | "time") =>
      t(countKey(`refpay.configuration.units.${unit}`, count), { count }),
  }
}

/** 5000 -> "5 s", 750 -> "750 ms": SI units, the same in every language. */
function duration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}

export const TimeoutsGroup = ({ settings }: Settings) => {
  const { t, row } = useConfigurationText()
  const { timeouts, variables: v } = settings
  return (
    <Group title={t("refpay.configuration.groups.timeouts")}>
      <Row label={row("connectTimeout")} variable={v.connectTimeoutMs}>
        <Value>{duration(timeouts.connect_ms)}</Value>
      </Row>
      <Row label={row("requestTimeout")} variable={v.requestTimeoutMs}>
        <Value>{duration(timeouts.request_ms)}</Value>
      </Row>
      <Row label={row("bodyTimeout")} variable={v.bodyTimeoutMs}>
        <Value>{duration(timeouts.body_ms)}</Value>
      </Row>
      <Row label={row("maxRetries")} variable={v.maxRetries}>
        <Value>{settings.retries.max_retries}</Value>
      </Row>
    </Group>
  )
}

export const ExpiryGroup = ({ settings }: Settings) => {
  const { t, row, value, count } = useConfigurationText()
  const { expiry, variables: v } = settings
  return (
    <Group title={t("refpay.configuration.groups.expiry")}>
      <Row label={row("expiryDays")} variable={v.expiryDays} testId="refpay-config-expiry-days">
        <Value>{count(expiry.expiry_days, "day")}</Value>
      </Row>
      <Row label={row("expiryGrace")} variable={v.expiryGraceHours}>
        <Value>{count(expiry.expiry_grace_hours, "hour")}</Value>
      </Row>
      <Row label={row("expiryPolicy")} variable={v.expiryPolicy}>
        <Value>
          {expiry.expiry_policy === "renew"
            ? value("renew", { times: count(expiry.max_renewals, "time") })
            : value("cancel")}
        </Value>
      </Row>
      <Row label={row("maxRenewals")} variable={v.maxRenewals}>
        <Value>{expiry.max_renewals}</Value>
      </Row>
      <Row label={row("reminder")} variable={v.reminderHoursBeforeExpiry}>
        <Value>
          {expiry.reminder_hours_before_expiry === 0
            ? value("noReminder")
            : value("before", { hours: count(expiry.reminder_hours_before_expiry, "hour") })}
        </Value>
      </Row>
      <Row label={row("cancelExpiredOrders")} variable={v.cancelExpiredOrders}>
        <Value>{value(expiry.cancel_expired_orders ? "yes" : "no")}</Value>
      </Row>
    </Group>
  )
}

export const PollGroup = ({ settings }: Settings) => {
  const { t, row, value, count } = useConfigurationText()
  const { poll, variables: v } = settings
  return (
    <Group title={t("refpay.configuration.groups.poll")}>
      <Row label={row("pollBatchSize")} variable={v.pollBatchSize}>
        <Value>{poll.poll_batch_size}</Value>
      </Row>
      <Row label={row("pollInterval")} variable={v.pollIntervalMinutes}>
        <Value>{count(poll.poll_interval_minutes, "minute")}</Value>
      </Row>
      <Row label={row("lateSettlement")} variable={v.lateSettlementDays}>
        <Value>{value("afterValidity", { days: count(poll.late_settlement_days, "day") })}</Value>
      </Row>
    </Group>
  )
}

export const LatePaymentsGroup = ({ settings }: Settings) => {
  const { t, row, value } = useConfigurationText()
  return (
    <Group title={t("refpay.configuration.groups.latePayments")}>
      <Row
        label={row("autoRefund")}
        variable={settings.variables.autoRefundLatePayments}
        testId="refpay-config-auto-refund"
      >
        <Value>{value(settings.late_payments.auto_refund_late_payments ? "yes" : "noAutoRefund")}</Value>
      </Row>
    </Group>
  )
}

import { CheckCircleSolid, MinusMini, XCircleSolid } from "@medusajs/icons"
import { Alert, Badge, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { ConnectionStep, ConnectionTestResult } from "../../../api/admin/refpay/connection-test/connection-test"
import { sayConnectionText } from "../../lib/server-texts"
import { useFormat } from "../../lib/format"

/** The connection test's answer: the server's summary, each step with its HTTP status and code, what to do next. */
export const ConnectionResult = ({ result }: { result: ConnectionTestResult }) => {
  const { t } = useTranslation()
  const { dateTime } = useFormat()
  return (
    <div
      className="flex flex-col gap-y-3 px-6 py-4"
      data-testid="refpay-connection-result"
      data-ok={result.ok ? "true" : "false"}
      data-problem={result.problem ?? ""}
    >
      <Alert variant={result.ok ? "success" : "error"} data-testid="refpay-connection-summary">
        {sayConnectionText(t, result.summary)}
      </Alert>
      <ul className="flex flex-col gap-y-2">
        {result.steps.map((step) => (
          <StepItem key={step.step} step={step} />
        ))}
      </ul>
      {result.hint && (
        <Text size="small" data-testid="refpay-connection-hint">
          <span className="font-medium">{t("refpay.connection.nextStep")} </span>
          {sayConnectionText(t, result.hint)}
        </Text>
      )}
      {result.platform_detail && (
        <Text size="small" className="text-ui-fg-subtle" data-testid="refpay-connection-detail">
          {t("refpay.connection.platformSaid")} <span className="font-mono">{result.platform_detail}</span>
        </Text>
      )}
      <Text size="xsmall" className="text-ui-fg-muted">
        {t("refpay.connection.tested", { when: dateTime(result.tested_at), ms: result.duration_ms })}
      </Text>
    </div>
  )
}

const StepItem = ({ step }: { step: ConnectionStep }) => {
  const { t } = useTranslation()
  return (
    <li
      className="flex items-start gap-x-3"
      data-testid={`refpay-connection-step-${step.step}`}
      data-result={step.result}
    >
      <span className="mt-0.5">
        <StepIcon result={step.result} />
      </span>
      <div className="flex min-w-0 flex-col">
        <div className="flex flex-wrap items-center gap-x-2">
          <Text size="small" weight="plus">
            {t(step.step === "token" ? "refpay.connection.steps.token" : "refpay.connection.steps.payments")}
          </Text>
          {step.http_status !== null && (
            <Badge size="2xsmall" color={step.result === "ok" ? "green" : "red"}>
              HTTP {step.http_status}
            </Badge>
          )}
          {step.code && (
            <Badge size="2xsmall" color="grey" className="font-mono">
              {step.code}
            </Badge>
          )}
        </div>
        <Text size="small" className="text-ui-fg-subtle">
          {sayConnectionText(t, step.message)}
        </Text>
        <Text size="xsmall" className="text-ui-fg-muted break-all font-mono">
          {step.url}
        </Text>
      </div>
    </li>
  )
}

const StepIcon = ({ result }: { result: ConnectionStep["result"] }) =>
  result === "ok" ? (
    <CheckCircleSolid className="text-ui-tag-green-icon" />
  ) : result === "failed" ? (
    <XCircleSolid className="text-ui-tag-red-icon" />
  ) : (
    <MinusMini className="text-ui-fg-muted" />
  )

import { CheckCircleSolid, MinusMini, XCircleSolid } from "@medusajs/icons"
import { Alert, Badge, Button, Container, Heading, Select, Text } from "@medusajs/ui"
import { useState } from "react"
import type { ConnectionTestResult } from "../../../admin-backend/connection-test"
import type { RefpaySettingsView } from "../../../admin-backend/settings-view"
import { formatDateTime, refpayAdmin } from "../../lib/refpay-admin-api"
import { useRefpayCall } from "../../lib/use-refpay-admin"

/**
 * The top of the REFPAY page: which platform the shop talks to (sandbox or production, impossible to miss) and
 * "Test connection", whose answer says in plain words what worked and what failed.
 */
export const ConnectionPanel = ({
  settings,
  registrations,
  onSelect,
}: {
  settings: RefpaySettingsView
  registrations: { provider_id: string; account: string | null; environment: string }[]
  onSelect: (providerId: string) => void
}) => {
  const [result, setResult] = useState<ConnectionTestResult | null>(null)
  const { running: testing, error, run } = useRefpayCall<{ connection: ConnectionTestResult }>()
  const sandbox = settings.environment === "sandbox"

  const test = async () => {
    const answer = await run(() =>
      refpayAdmin("POST", "/admin/refpay/connection-test", undefined, { provider_id: settings.provider_id })
    )
    if (answer) setResult(answer.connection)
  }

  return (
    <Container className="divide-y p-0" data-testid="refpay-connection">
      <div className="flex flex-wrap items-start justify-between gap-4 px-6 py-4">
        <div className="flex flex-col gap-y-1">
          <div className="flex items-center gap-x-3">
            <Heading level="h1">REFPAY</Heading>
            <Badge
              size="base"
              color={sandbox ? "orange" : "green"}
              className="uppercase tracking-wide"
              data-testid="refpay-environment"
              data-environment={settings.environment}
            >
              {sandbox ? "Sandbox" : "Production"}
            </Badge>
          </div>
          <Text size="small" className="text-ui-fg-subtle">
            Reference payments: the customer pays an entity and a reference at an ATM or in a banking app.
            {registrations.length > 1
              ? ` Seller account ${settings.account ?? settings.provider_id} (${settings.provider_id}).`
              : ""}
          </Text>
        </div>
        <div className="flex items-center gap-x-2">
          {registrations.length > 1 && (
            <div className="w-[220px]">
              <Select size="small" value={settings.provider_id} onValueChange={onSelect}>
                <Select.Trigger data-testid="refpay-registration">
                  <Select.Value />
                </Select.Trigger>
                <Select.Content>
                  {registrations.map((r) => (
                    <Select.Item key={r.provider_id} value={r.provider_id}>
                      {r.account ? `Account ${r.account}` : r.provider_id} ({r.environment})
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select>
            </div>
          )}
          <Button
            size="small"
            variant="secondary"
            onClick={test}
            isLoading={testing}
            data-testid="refpay-test-connection"
          >
            Test connection
          </Button>
        </div>
      </div>

      <div className="px-6 py-3">
        {sandbox ? (
          <Alert variant="warning" data-testid="refpay-environment-note">
            Sandbox environment: payments are simulated and no money moves. Switch REFPAY_ENVIRONMENT to production,
            with production credentials, to take real payments.
          </Alert>
        ) : (
          <Alert variant="success" data-testid="refpay-environment-note">
            Production environment: references are real and customers pay real money.
          </Alert>
        )}
      </div>

      {error && (
        <div className="px-6 py-4">
          <Alert variant="error" data-testid="refpay-connection-error">
            The connection test could not run: {error}
          </Alert>
        </div>
      )}
      {result && <ConnectionResult result={result} />}
    </Container>
  )
}

const ConnectionResult = ({ result }: { result: ConnectionTestResult }) => (
  <div
    className="flex flex-col gap-y-3 px-6 py-4"
    data-testid="refpay-connection-result"
    data-ok={result.ok ? "true" : "false"}
    data-problem={result.problem ?? ""}
  >
    <Alert variant={result.ok ? "success" : "error"} data-testid="refpay-connection-summary">
      {result.summary}
    </Alert>
    <ul className="flex flex-col gap-y-2">
      {result.steps.map((step) => (
        <li
          key={step.step}
          className="flex items-start gap-x-3"
          data-testid={`refpay-connection-step-${step.step}`}
          data-result={step.result}
        >
          <span className="mt-0.5">
            {step.result === "ok" ? (
              <CheckCircleSolid className="text-ui-tag-green-icon" />
            ) : step.result === "failed" ? (
              <XCircleSolid className="text-ui-tag-red-icon" />
            ) : (
              <MinusMini className="text-ui-fg-muted" />
            )}
          </span>
          <div className="flex min-w-0 flex-col">
            <div className="flex flex-wrap items-center gap-x-2">
              <Text size="small" weight="plus">
                {step.step === "token" ? "Token" : "Payments API"}
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
              {step.message}
            </Text>
            <Text size="xsmall" className="text-ui-fg-muted break-all font-mono">
              {step.url}
            </Text>
          </div>
        </li>
      ))}
    </ul>
    {result.hint && (
      <Text size="small" data-testid="refpay-connection-hint">
        <span className="font-medium">Next step: </span>
        {result.hint}
      </Text>
    )}
    {result.platform_detail && (
      <Text size="small" className="text-ui-fg-subtle" data-testid="refpay-connection-detail">
        The platform said: <span className="font-mono">{result.platform_detail}</span>
      </Text>
    )}
    <Text size="xsmall" className="text-ui-fg-muted">
      Tested {formatDateTime(result.tested_at)} in {result.duration_ms} ms, with a client of its own (the shop's
      payments were not disturbed).
    </Text>
  </div>
)

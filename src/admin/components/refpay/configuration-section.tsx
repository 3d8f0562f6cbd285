import { Badge, Container, Heading, Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import type { RefpaySettingsView } from "../../../admin-backend/settings-view"

/**
 * The settings as the server resolved them, grouped as the README documents them, each with the environment
 * variable that changes it. Credentials show only whether they are set.
 */
export const ConfigurationSection = ({ settings }: { settings: RefpaySettingsView }) => {
  const v = settings.variables
  const required = new Set(settings.required_credentials)
  const credential = (key: keyof RefpaySettingsView["credentials"], label: string, variable: string) => {
    const state = settings.credentials[key]
    return (
      <Row label={label} variable={variable} testId={`refpay-credential-${key}`}>
        {state === "set" ? (
          <Badge size="2xsmall" color="green" data-state="set">
            Set
          </Badge>
        ) : (
          <Badge size="2xsmall" color={required.has(key) ? "red" : "grey"} data-state="missing">
            {required.has(key) ? "Missing (required)" : "Missing"}
          </Badge>
        )}
      </Row>
    )
  }
  const { urls, timeouts, expiry, poll } = settings

  return (
    <Container className="divide-y p-0" data-testid="refpay-configuration">
      <div className="px-6 py-4">
        <Heading level="h2">Configuration</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          As this server resolved it at start-up: medusa-config options first, then the REFPAY_* variables, then the
          defaults. Change a setting through its variable and restart Medusa.
          {settings.account
            ? ` This registration is seller account "${settings.account}": each setting is read from REFPAY_${settings.account.toUpperCase()}_* first, then from REFPAY_*.`
            : ""}
        </Text>
      </div>
      <div className="grid grid-cols-1 gap-6 px-6 py-4 lg:grid-cols-2">
        <Group title="Platform">
          <Row label="Environment" variable={v.environment} testId="refpay-config-environment">
            <Value>{settings.environment}</Value>
          </Row>
          <Row label="Token interface" variable={v.tokenInterface}>
            <Value>
              {settings.token_interface === "t1" ? "T1, OAuth client credentials" : "T2, back-office token"}
            </Value>
          </Row>
          {urls.auth_url !== null && (
            <Row label="Token service (T1)" variable={v.authUrl}>
              <Value mono>{urls.auth_url}</Value>
            </Row>
          )}
          {urls.backoffice_url !== null && (
            <Row label="Back-office (T2)" variable={v.backofficeUrl}>
              <Value mono>{urls.backoffice_url}</Value>
            </Row>
          )}
          <Row label="Payments host" variable={v.paymentsUrl} testId="refpay-config-payments-url">
            <Value mono>{urls.payments_url}</Value>
          </Row>
          <Row label="Status read path" variable={v.paymentInfoPath}>
            <Value mono>{settings.paths.payment_info_path}</Value>
          </Row>
          <Row label="Cancel and refund path" variable={v.cancelPath}>
            <Value mono>{settings.paths.cancel_path}</Value>
          </Row>
          {settings.t2_authorization_form && (
            <Row label="T2 Authorization header" variable={v.t2AuthorizationForm}>
              <Value>{settings.t2_authorization_form === "bearer" ? "Bearer <token>" : "the token alone"}</Value>
            </Row>
          )}
          {urls.sandbox_hosts.length > 0 && (
            <Row label="Extra sandbox hosts" variable={v.sandboxHosts}>
              <Value mono>{urls.sandbox_hosts.join(", ")}</Value>
            </Row>
          )}
        </Group>

        <Group title="Credentials" note="Values are never shown: only whether each one is set.">
          {credential("client_id", "Client id", v.clientId)}
          {credential("client_secret", "Client secret", v.clientSecret)}
          {credential("channel", "Channel (T2)", v.channel)}
          {credential("scope", "Scope", v.scope)}
          {credential("webhook_secret", "Webhook secret", v.webhookSecret)}
        </Group>

        <Group title="Timeouts and retries">
          <Row label="Connect" variable={v.connectTimeoutMs}>
            <Value>{ms(timeouts.connect_ms)}</Value>
          </Row>
          <Row label="Response headers" variable={v.requestTimeoutMs}>
            <Value>{ms(timeouts.request_ms)}</Value>
          </Row>
          <Row label="Silence in a body" variable={v.bodyTimeoutMs}>
            <Value>{ms(timeouts.body_ms)}</Value>
          </Row>
          <Row label="Retries (connection errors, 5xx)" variable={v.maxRetries}>
            <Value>{settings.retries.max_retries}</Value>
          </Row>
        </Group>

        <Group title="Expiry">
          <Row label="Reference valid for" variable={v.expiryDays} testId="refpay-config-expiry-days">
            <Value>{plural(expiry.expiry_days, "day")}</Value>
          </Row>
          <Row label="Grace after expiry" variable={v.expiryGraceHours}>
            <Value>{plural(expiry.expiry_grace_hours, "hour")}</Value>
          </Row>
          <Row label="When a reference expires unpaid" variable={v.expiryPolicy}>
            <Value>
              {expiry.expiry_policy === "renew"
                ? `issue a new reference (up to ${plural(expiry.max_renewals, "time")})`
                : "cancel it"}
            </Value>
          </Row>
          <Row label="Renewals per order" variable={v.maxRenewals}>
            <Value>{expiry.max_renewals}</Value>
          </Row>
          <Row label="Reminder before expiry" variable={v.reminderHoursBeforeExpiry}>
            <Value>
              {expiry.reminder_hours_before_expiry === 0
                ? "none"
                : `${plural(expiry.reminder_hours_before_expiry, "hour")} before`}
            </Value>
          </Row>
          <Row label="Cancel the order when it expires" variable={v.cancelExpiredOrders}>
            <Value>{yesNo(expiry.cancel_expired_orders)}</Value>
          </Row>
        </Group>

        <Group title="Status checks (poll job)">
          <Row label="Payments checked per run, at least" variable={v.pollBatchSize}>
            <Value>{poll.poll_batch_size}</Value>
          </Row>
          <Row label="Each waiting payment checked every" variable={v.pollIntervalMinutes}>
            <Value>{plural(poll.poll_interval_minutes, "minute")}</Value>
          </Row>
          <Row label="Late settlements watched for" variable={v.lateSettlementDays}>
            <Value>{plural(poll.late_settlement_days, "day")} after validity</Value>
          </Row>
        </Group>

        <Group title="Payments after cancellation">
          <Row label="Refund automatically" variable={v.autoRefundLatePayments} testId="refpay-config-auto-refund">
            <Value>
              {settings.late_payments.auto_refund_late_payments
                ? "yes"
                : "no: listed under Payments that need attention"}
            </Value>
          </Row>
        </Group>
      </div>
    </Container>
  )
}

const Group = ({ title, note, children }: { title: string; note?: string; children: ReactNode }) => (
  <section className="flex flex-col gap-y-2">
    <div>
      <Text size="small" weight="plus" leading="compact">
        {title}
      </Text>
      {note && (
        <Text size="xsmall" className="text-ui-fg-muted">
          {note}
        </Text>
      )}
    </div>
    <dl className="flex flex-col divide-y rounded-md border">{children}</dl>
  </section>
)

const Row = ({
  label,
  variable,
  testId,
  children,
}: {
  label: string
  variable?: string
  testId?: string
  children: ReactNode
}) => (
  <div className="grid grid-cols-2 items-center gap-x-4 px-3 py-2" data-testid={testId}>
    <dt className="flex flex-col">
      <Text size="small" leading="compact" className="text-ui-fg-subtle">
        {label}
      </Text>
      {variable && (
        <Text size="xsmall" leading="compact" className="text-ui-fg-muted font-mono">
          {variable}
        </Text>
      )}
    </dt>
    <dd className="min-w-0">{children}</dd>
  </div>
)

const Value = ({ children, mono }: { children: ReactNode; mono?: boolean }) => (
  <Text size="small" leading="compact" className={mono ? "break-all font-mono" : undefined}>
    {children}
  </Text>
)

function ms(value: number): string {
  return value >= 1000 && value % 1000 === 0 ? `${value / 1000} s` : `${value} ms`
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"}`
}

function yesNo(value: boolean): string {
  return value ? "yes" : "no"
}

import { ArrowPath } from "@medusajs/icons"
import {
  Alert,
  Badge,
  Button,
  Container,
  Copy,
  Heading,
  IconButton,
  Select,
  StatusBadge,
  Table,
  Text,
} from "@medusajs/ui"
import { useCallback, useEffect, useRef, useState } from "react"
import { Link } from "react-router-dom"
import type { DeliveryView } from "../../../admin-backend/deliveries"
import type { TestEventProgress, TestEventResult } from "../../../admin-backend/sandbox-test-event"
import type { WebhookSetup, WebhookWarning } from "../../../admin-backend/webhook-health"
import { formatDateTime, refpayAdmin, relativeTime } from "../../lib/refpay-admin-api"
import { useRefpayGet } from "../../lib/use-refpay-admin"
import { EmptyRow, Pager } from "./paged-list"

export interface WebhooksView extends WebhookSetup {
  last_delivery_at: string | null
  deliveries_recorded: number
  waiting_payments: number
  refusals: {
    door: "medusa" | "refpay"
    reason: string
    refused_count: number
    first_refused_at: string
    last_refused_at: string
  }[]
  /** Authentic deliveries that were not usable REFPAY events: acknowledged (200), counted, ignored. */
  malformed: {
    door: "medusa" | "refpay"
    reason: string
    received_count: number
    first_received_at: string
    last_received_at: string
  }[]
  warnings: WebhookWarning[]
  test_event_available: boolean
}

type DeliveryStatus = DeliveryView["status"]

const STATUS: Record<DeliveryStatus, { label: string; color: "green" | "blue" | "orange" | "red" | "grey" }> = {
  processed: { label: "Processed", color: "green" },
  duplicate: { label: "Duplicate", color: "blue" },
  unknown_payment: { label: "Unknown payment", color: "orange" },
  not_processed: { label: "Not processed", color: "red" },
  test: { label: "Test event", color: "grey" },
}

const REASONS: Record<string, string> = {
  wrong_secret: "wrong secret",
  missing_secret: "no secret",
  no_secret_configured: "shop has no secret",
}

const MALFORMED_REASONS: Record<string, string> = {
  no_payment_id: "no payment_id",
  no_event_type: "no event_type",
  not_json: "not JSON",
  not_an_object: "not a JSON object",
}

const PAGE_SIZE = 50

/**
 * Webhooks: the URL to give the platform with a copy button, how deliveries authenticate, warnings, a sandbox test
 * event, and the latest deliveries with what became of each.
 */
export const WebhooksSection = ({ providerId }: { providerId: string }) => {
  const [refreshKey, setRefreshKey] = useState(0)
  const refresh = useCallback(() => setRefreshKey((k) => k + 1), [])
  const { data, error } = useRefpayGet<{ webhooks: WebhooksView }>(
    "/admin/refpay/webhooks",
    { provider_id: providerId },
    refreshKey
  )
  const view = data?.webhooks

  return (
    <Container className="divide-y p-0" data-testid="refpay-webhooks">
      <div className="flex items-start justify-between gap-x-4 px-6 py-4">
        <div>
          <Heading level="h2">Webhooks</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            The platform tells the shop when a customer pays. Without webhooks the poll job still finds payments, later.
          </Text>
        </div>
        <IconButton
          size="small"
          variant="transparent"
          onClick={refresh}
          aria-label="Refresh"
          data-testid="refpay-webhooks-refresh"
        >
          <ArrowPath />
        </IconButton>
      </div>
      {error && (
        <div className="px-6 py-4">
          <Alert variant="error">Could not load the webhook status: {error}</Alert>
        </div>
      )}
      {view && <Setup view={view} providerId={providerId} onTestEvent={refresh} />}
      <Deliveries refreshKey={refreshKey} />
    </Container>
  )
}

const Setup = ({
  view,
  providerId,
  onTestEvent,
}: {
  view: WebhooksView
  providerId: string
  onTestEvent: () => void
}) => (
  <div className="flex flex-col gap-y-4 px-6 py-4">
    {view.warnings.map((warning) => (
      <Alert
        key={warning.code}
        variant={warning.level === "error" ? "error" : "warning"}
        data-testid={`refpay-webhook-warning-${warning.code}`}
      >
        {warning.message}
      </Alert>
    ))}
    <div className="flex flex-col gap-y-1">
      <Text size="small" weight="plus">
        URL to give the platform
      </Text>
      <div className="bg-ui-bg-subtle flex items-center justify-between gap-x-2 rounded-md border px-3 py-2">
        <Text size="small" className="break-all font-mono" data-testid="refpay-webhook-url">
          {view.url}
        </Text>
        <Copy content={view.url} data-testid="refpay-webhook-url-copy" />
      </div>
      <Text size="xsmall" className="text-ui-fg-muted">
        {view.url_source === "backend_url"
          ? "Built from Medusa's admin.backendUrl (MEDUSA_BACKEND_URL)."
          : "Built from the address this page was opened with; set MEDUSA_BACKEND_URL (Medusa's admin.backendUrl) to the shop's public https address if it differs."}
        {view.medusa_url ? ` Medusa's own route ${view.medusa_url} works too (processed 5 seconds later).` : ""}
      </Text>
    </div>
    <div className="flex flex-col gap-y-1">
      <Text size="small" weight="plus">
        Authentication
      </Text>
      <Text size="small" className="text-ui-fg-subtle" data-testid="refpay-webhook-auth">
        Every delivery must carry the shop's webhook secret ({view.authentication.variable},{" "}
        <Badge size="2xsmall" color={view.authentication.secret === "set" ? "green" : "red"}>
          {view.authentication.secret === "set" ? "set" : "missing"}
        </Badge>
        ), either in the header <code className="font-mono">{view.authentication.header}</code> or as the password of
        HTTP Basic authentication (any user name). Deliveries without it are refused with 401.
      </Text>
    </div>
    <div className="text-ui-fg-subtle flex flex-wrap gap-x-4 gap-y-1" data-testid="refpay-webhook-facts">
      <Text size="small">
        Last delivery:{" "}
        <span className="text-ui-fg-base">
          {view.last_delivery_at
            ? `${formatDateTime(view.last_delivery_at)} (${relativeTime(view.last_delivery_at)})`
            : "none yet"}
        </span>
      </Text>
      <Text size="small">
        Payments waiting: <span className="text-ui-fg-base">{view.waiting_payments}</span>
      </Text>
      {view.refusals.length > 0 && (
        <Text size="small" data-testid="refpay-webhook-refusals">
          Refused:{" "}
          <span className="text-ui-fg-base">
            {view.refusals
              .map(
                (r) =>
                  `${r.refused_count} (${REASONS[r.reason] ?? r.reason}, ${r.door === "refpay" ? "/hooks/refpay" : "Medusa's route"}, last ${relativeTime(r.last_refused_at)})`
              )
              .join("; ")}
          </span>
        </Text>
      )}
      {view.malformed.length > 0 && (
        <Text size="small" data-testid="refpay-webhook-malformed">
          Unusable (authentic, acknowledged, ignored):{" "}
          <span className="text-ui-fg-base">
            {view.malformed
              .map(
                (m) =>
                  `${m.received_count} (${MALFORMED_REASONS[m.reason] ?? m.reason}, ${m.door === "refpay" ? "/hooks/refpay" : "Medusa's route"}, last ${relativeTime(m.last_received_at)})`
              )
              .join("; ")}
          </span>
        </Text>
      )}
    </div>
    {view.test_event_available && <TestEvent providerId={providerId} onDone={onTestEvent} />}
  </div>
)

type TestState =
  | { state: "idle" }
  | { state: "sending" }
  | { state: "waiting"; paymentId: string; message: string; summary: string | null }
  | { state: "arrived"; delivery: DeliveryView }
  | { state: "failed"; message: string }

const TEST_WAIT_MS = 20_000

/** Sandbox only: a throwaway payment whose PENDING_TRANSACTIONS webhook the owner sees arrive. */
const TestEvent = ({ providerId, onDone }: { providerId: string; onDone: () => void }) => {
  const [test, setTest] = useState<TestState>({ state: "idle" })
  const timer = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => () => clearTimeout(timer.current), [])

  const send = async () => {
    clearTimeout(timer.current)
    setTest({ state: "sending" })
    const answer = await refpayAdmin<{ test_event: TestEventResult }>(
      "POST",
      "/admin/refpay/webhooks/test-event",
      undefined,
      {
        provider_id: providerId,
      }
    ).catch(() => null)
    const result = answer?.body?.test_event
    if (!answer || !result)
      return setTest({ state: "failed", message: answer?.message ?? "The test event could not be sent." })
    if (!result.sent) return setTest({ state: "failed", message: result.message })
    setTest({ state: "waiting", paymentId: result.payment_id, message: result.message, summary: null })
    const started = Date.now()
    const poll = async () => {
      const progress = await refpayAdmin<{
        test_event: TestEventProgress & { arrived: boolean; deliveries: DeliveryView[] }
      }>("GET", `/admin/refpay/webhooks/test-event/${encodeURIComponent(result.payment_id)}`, {
        provider_id: providerId,
      }).catch(() => null)
      const body = progress?.body?.test_event
      if (body?.arrived && body.deliveries[0]) {
        setTest({ state: "arrived", delivery: body.deliveries[0] })
        onDone()
        return
      }
      if (Date.now() - started > TEST_WAIT_MS) {
        setTest({
          state: "failed",
          message: `No delivery arrived within ${TEST_WAIT_MS / 1000} s. ${body?.sandbox_summary ?? ""}`.trim(),
        })
        onDone()
        return
      }
      setTest({
        state: "waiting",
        paymentId: result.payment_id,
        message: result.message,
        summary: body?.sandbox_summary ?? null,
      })
      timer.current = setTimeout(poll, 1000)
    }
    timer.current = setTimeout(poll, 500)
  }

  return (
    <div
      className="flex flex-col gap-y-2 rounded-md border border-dashed px-4 py-3"
      data-testid="refpay-test-event"
      data-state={test.state}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Text size="small" className="text-ui-fg-subtle">
          Sandbox: send a test event to see a delivery arrive here (a throwaway 1,00 € payment in the sandbox).
        </Text>
        <Button
          size="small"
          variant="secondary"
          onClick={send}
          isLoading={test.state === "sending" || test.state === "waiting"}
          data-testid="refpay-send-test-event"
        >
          Send a test event
        </Button>
      </div>
      {test.state === "waiting" && (
        <Text size="small" data-testid="refpay-test-event-status">
          {test.message} Waiting for the delivery… {test.summary ?? ""}
        </Text>
      )}
      {test.state === "arrived" && (
        <Alert variant="success" data-testid="refpay-test-event-status">
          The test delivery arrived {formatDateTime(test.delivery.received_at)}: {test.delivery.event_type}, through{" "}
          {test.delivery.door === "refpay" ? "/hooks/refpay" : "Medusa's route"}. Webhooks work.
        </Alert>
      )}
      {test.state === "failed" && (
        <Alert variant="error" data-testid="refpay-test-event-status">
          {test.message}
        </Alert>
      )}
    </div>
  )
}

const Deliveries = ({ refreshKey }: { refreshKey: number }) => {
  const [status, setStatus] = useState<DeliveryStatus | "all">("all")
  const [page, setPage] = useState(0)
  const { data, error } = useRefpayGet<{ deliveries: DeliveryView[]; count: number }>(
    "/admin/refpay/webhooks/deliveries",
    { status: status === "all" ? undefined : status, limit: PAGE_SIZE, offset: page * PAGE_SIZE },
    refreshKey
  )
  return (
    <div className="flex flex-col" data-testid="refpay-deliveries">
      <div className="flex items-center justify-between gap-x-4 px-6 py-4">
        <div>
          <Text size="small" weight="plus">
            Latest deliveries
          </Text>
          <Text size="xsmall" className="text-ui-fg-muted">
            Deliveries refused for their secret, and authentic ones that were not usable events, are not listed; they
            are counted above.
          </Text>
        </div>
        <div className="w-[200px]">
          <Select
            size="small"
            value={status}
            onValueChange={(value) => {
              setStatus(value as DeliveryStatus | "all")
              setPage(0)
            }}
          >
            <Select.Trigger data-testid="refpay-deliveries-filter">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              <Select.Item value="all">All outcomes</Select.Item>
              {(Object.keys(STATUS) as DeliveryStatus[]).map((key) => (
                <Select.Item key={key} value={key}>
                  {STATUS[key].label}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
        </div>
      </div>
      {error && (
        <div className="px-6 pb-4">
          <Alert variant="error">Could not load the deliveries: {error}</Alert>
        </div>
      )}
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Received</Table.HeaderCell>
            <Table.HeaderCell>Event</Table.HeaderCell>
            <Table.HeaderCell>Payment</Table.HeaderCell>
            <Table.HeaderCell>Route</Table.HeaderCell>
            <Table.HeaderCell>Outcome</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {data?.deliveries.map((d) => (
            <Table.Row
              key={d.id}
              data-testid="refpay-delivery-row"
              data-status={d.status}
              data-payment-id={d.payment_id}
            >
              <Table.Cell>
                <Text size="small" leading="compact">
                  {formatDateTime(d.received_at)}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <Text size="small" leading="compact" className="font-mono">
                  {d.event_type.replace(/_TRANSACTIONS$/, "")}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <div className="flex flex-col">
                  {d.order ? (
                    <Link
                      to={`/orders/${d.order.id}`}
                      className="text-ui-fg-interactive txt-compact-small hover:text-ui-fg-interactive-hover"
                    >
                      Order #{d.order.display_id ?? d.order.id}
                    </Link>
                  ) : (
                    <Text size="small" leading="compact" className="text-ui-fg-muted">
                      {d.status === "test" ? "Test payment" : "No order here"}
                    </Text>
                  )}
                  <Text size="xsmall" leading="compact" className="text-ui-fg-muted font-mono" title={d.payment_id}>
                    {d.payment_id.slice(0, 8)}…
                  </Text>
                </div>
              </Table.Cell>
              <Table.Cell>
                <Text size="small" leading="compact">
                  {d.door === "refpay" ? "/hooks/refpay" : "Medusa"}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <div className="flex items-center gap-x-2">
                  <StatusBadge color={STATUS[d.status].color}>{STATUS[d.status].label}</StatusBadge>
                  {d.deliveries > 1 && (
                    <Text size="xsmall" className="text-ui-fg-muted">
                      ×{d.deliveries}
                    </Text>
                  )}
                </div>
              </Table.Cell>
            </Table.Row>
          ))}
          {data && data.deliveries.length === 0 && (
            <EmptyRow columns={5} testId="refpay-deliveries-empty">
              {status === "all" ? "No delivery has been recorded yet." : "No delivery with this outcome."}
            </EmptyRow>
          )}
        </Table.Body>
      </Table>
      {data && <Pager count={data.count} pageSize={PAGE_SIZE} page={page} setPage={setPage} />}
    </div>
  )
}

import { Alert, Badge, Button, Container, Heading, Table, Tabs, Text, toast, usePrompt } from "@medusajs/ui"
import { useCallback, useEffect, useState } from "react"
import type { AttentionKind } from "../../../admin-backend/attention"
import type { AdminPaymentRow } from "../../../admin-backend/payment-rows"
import { formatDateTime, refpayAdmin, relativeTime } from "../../lib/refpay-admin-api"
import { useRefpayGet } from "../../lib/use-refpay-admin"
import { EmptyRow, Pager } from "./paged-list"
import { PaymentHeaderCells, PaymentRow } from "./payment-cells"

export type AttentionCounts = Record<AttentionKind, number>

const KINDS: { kind: AttentionKind; label: string; explain: string }[] = [
  {
    kind: "expiring",
    label: "Expiring within 24 h",
    explain: "Waiting references whose validity ends within a day: a reminder may still save the sale.",
  },
  {
    kind: "paid_after_cancellation",
    label: "Paid after cancellation",
    explain:
      "The customer paid after the order was cancelled: the money is held until you refund it (or reinstate the sale with the customer).",
  },
  {
    kind: "refund_mismatch",
    label: "Refunds differ",
    explain:
      "Medusa's refunded total differs from the platform's: a refund was made on the platform and not recorded in Medusa, or recorded in Medusa and not made on the platform. Compare both and correct the one that is wrong.",
  },
  {
    kind: "amount_mismatch",
    label: "Amount mismatch",
    explain:
      "The platform reports a payment for another amount than the order's. It is never captured automatically: check it on the platform.",
  },
  {
    kind: "unknown_payment",
    label: "Unknown to REFPAY",
    explain:
      "The platform does not know these references: check the REFPAY environment and credentials, or the payment on the platform. Nothing was cancelled.",
  },
  {
    kind: "platform_error",
    label: "Last check failed",
    explain: "The last status check could not reach the platform. They are checked again automatically.",
  },
]

const PAGE_SIZE = 20

/** The payments a shop owner should act on, one tab per kind, each row linking to its order. */
export const AttentionSection = ({
  counts,
  onChange,
  several,
}: {
  counts: AttentionCounts | null
  onChange: () => void
  several: boolean
}) => {
  const [kind, setKind] = useState<AttentionKind | null>(null)
  // The first list with rows, chosen once: a list emptied by a refund stays on screen rather than jumping away.
  useEffect(() => {
    if (kind === null && counts) setKind(KINDS.find((k) => counts[k.kind] > 0)?.kind ?? "expiring")
  }, [counts, kind])
  const active = kind ?? "expiring"
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : null

  return (
    <Container className="divide-y p-0" data-testid="refpay-attention">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Payments that need attention</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {total === null
              ? "Loading…"
              : total === 0
                ? "Nothing needs you right now."
                : `${total} payment${total === 1 ? "" : "s"} to look at.`}
          </Text>
        </div>
      </div>
      <Tabs value={active} onValueChange={(value) => setKind(value as AttentionKind)}>
        <div className="px-6 py-3">
          <Tabs.List className="flex-wrap">
            {KINDS.map(({ kind: k, label }) => (
              <Tabs.Trigger key={k} value={k} data-testid={`refpay-attention-tab-${k}`}>
                {label}
                <Badge
                  size="2xsmall"
                  className="ml-2"
                  color={(counts?.[k] ?? 0) > 0 ? (k === "expiring" ? "orange" : "red") : "grey"}
                  data-testid={`refpay-attention-count-${k}`}
                >
                  {counts?.[k] ?? "–"}
                </Badge>
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </div>
        {KINDS.map(({ kind: k, explain }) => (
          <Tabs.Content key={k} value={k}>
            {k === active && kind !== null && (
              <AttentionList kind={k} explain={explain} onChange={onChange} several={several} />
            )}
          </Tabs.Content>
        ))}
      </Tabs>
    </Container>
  )
}

const AttentionList = ({
  kind,
  explain,
  onChange,
  several,
}: {
  kind: AttentionKind
  explain: string
  onChange: () => void
  several: boolean
}) => {
  const [page, setPage] = useState(0)
  const [reload, setReload] = useState(0)
  const { data, error } = useRefpayGet<{ payments: AdminPaymentRow[]; count: number }>(
    `/admin/refpay/attention/${kind}`,
    { limit: PAGE_SIZE, offset: page * PAGE_SIZE },
    reload
  )
  const prompt = usePrompt()

  const refund = useCallback(
    async (row: AdminPaymentRow) => {
      const amount = formatCents(row.payment?.refundable_cents ?? 0)
      const confirmed = await prompt({
        title: `Refund ${amount}?`,
        description:
          `Order #${row.order?.display_id ?? row.order?.id} was cancelled before the customer paid reference ${row.reference}. ` +
          `${amount} goes back to the customer through REFPAY; this cannot be undone.`,
        confirmText: `Refund ${amount}`,
        cancelText: "Cancel",
        variant: "confirmation",
      })
      if (!confirmed) return
      const answer = await refpayAdmin(
        "POST",
        `/admin/refpay/late-payments/${encodeURIComponent(row.payment_session_id)}/refund`
      )
      if (answer.ok) {
        toast.success("Refunded", {
          description: `${amount} is on its way back to the customer of order #${row.order?.display_id ?? ""}.`,
        })
        setReload((n) => n + 1)
        onChange()
      } else {
        toast.error("The refund failed", { description: answer.message ?? undefined })
      }
    },
    [prompt, onChange]
  )

  const refundable = kind === "paid_after_cancellation"
  const detail = DETAIL[kind]
  return (
    <div className="flex flex-col" data-testid={`refpay-attention-list-${kind}`}>
      <Text size="small" className="text-ui-fg-subtle px-6 pb-3">
        {explain}
      </Text>
      {error && (
        <div className="px-6 pb-4">
          <Alert variant="error">Could not load the list: {error}</Alert>
        </div>
      )}
      <Table>
        <Table.Header>
          <Table.Row>
            <PaymentHeaderCells />
            <Table.HeaderCell>{detail.header}</Table.HeaderCell>
            {refundable && <Table.HeaderCell className="text-right">Action</Table.HeaderCell>}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {data?.payments.map((row) => (
            <PaymentRow key={row.payment_session_id} row={row} testId="refpay-attention-row" showAccount={several}>
              <Table.Cell>
                <Detail {...detail.cell(row)} />
              </Table.Cell>
              {refundable && (
                <Table.Cell className="text-right">
                  <Button size="small" variant="secondary" onClick={() => refund(row)} data-testid="refpay-refund">
                    Refund {formatCents(row.payment?.refundable_cents ?? 0)}
                  </Button>
                </Table.Cell>
              )}
            </PaymentRow>
          ))}
          {data && data.payments.length === 0 && (
            <EmptyRow columns={refundable ? 5 : 4} testId="refpay-attention-empty">
              Nothing here.
            </EmptyRow>
          )}
        </Table.Body>
      </Table>
      {data && <Pager count={data.count} pageSize={PAGE_SIZE} page={page} setPage={setPage} />}
    </div>
  )
}

/** What a kind's own column says about a payment: a time, and under it what that time means here. */
type DetailLines = { when: string; note: string; urgent?: boolean }

const lastCheck = (row: AdminPaymentRow, withError: boolean): DetailLines => {
  const check = row.last_check
  return {
    when: `${formatDateTime(check?.checked_at)}${check && check.failures > 1 ? ` (${check.failures} failures in a row)` : ""}`,
    note: `Platform status: ${row.platform_status || "-"}${withError && check?.error ? `: ${check.error}` : ""}`,
  }
}

const DETAIL: Record<AttentionKind, { header: string; cell: (row: AdminPaymentRow) => DetailLines }> = {
  expiring: {
    header: "Expires",
    cell: (row) => ({ when: formatDateTime(row.expires_at), note: relativeTime(row.expires_at), urgent: true }),
  },
  paid_after_cancellation: {
    header: "Paid after cancellation",
    cell: (row) => ({
      when: formatDateTime(row.paid_after_cancellation_at),
      note:
        row.payment && row.payment.refunded_cents > 0
          ? `${formatCents(row.payment.refunded_cents)} refunded, ${formatCents(row.payment.refundable_cents)} held`
          : `${formatCents(row.payment?.refundable_cents ?? 0)} held`,
    }),
  },
  refund_mismatch: {
    header: "Refunded",
    cell: (row) => ({
      when: `Medusa ${formatCents(row.payment?.refunded_cents ?? 0)}, REFPAY ${formatCents(row.platform_refunded_cents ?? 0)}`,
      note: `Refunded of ${formatCents(row.payment?.captured_cents ?? 0)} captured (REFPAY as last read)`,
      urgent: true,
    }),
  },
  amount_mismatch: { header: "Last check", cell: (row) => lastCheck(row, false) },
  unknown_payment: { header: "Last check", cell: (row) => lastCheck(row, false) },
  platform_error: { header: "Last check", cell: (row) => lastCheck(row, true) },
}

const Detail = ({ when, note, urgent }: DetailLines) => (
  <div className="flex max-w-[360px] flex-col">
    <Text size="small" leading="compact">
      {when}
    </Text>
    <Text size="xsmall" leading="compact" className={urgent ? "text-ui-tag-orange-text" : "text-ui-fg-muted"}>
      {note}
    </Text>
  </div>
)

export function formatCents(cents: number): string {
  return new Intl.NumberFormat("pt-PT", { style: "currency", currency: "EUR" }).format(cents / 100)
}

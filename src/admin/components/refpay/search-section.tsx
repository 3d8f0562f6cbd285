import { MagnifyingGlass } from "@medusajs/icons"
import { Alert, Button, clx, Container, Heading, Input, Label, Table, Text } from "@medusajs/ui"
import { useState, type FormEvent } from "react"
import type { AdminPaymentRow } from "../../../admin-backend/payment-rows"
import { formatDateTime, refpayAdmin } from "../../lib/refpay-admin-api"
import { useRefpayCall } from "../../lib/use-refpay-admin"
import { PaymentHeaderCells, PaymentRow } from "./payment-cells"

/**
 * "Which order is this?": the reference a customer quotes on the phone (the entity too, when they give it), found
 * exactly as typed; spaces, as on an ATM receipt, are ignored.
 */
export const SearchSection = ({ several }: { several: boolean }) => {
  const [entity, setEntity] = useState("")
  const [reference, setReference] = useState("")
  const [result, setResult] = useState<{ query: string; payments: AdminPaymentRow[]; count: number } | null>(null)
  const { running: searching, error, run } = useRefpayCall<{ payments: AdminPaymentRow[]; count: number }>()

  const search = async (event: FormEvent) => {
    event.preventDefault()
    if (!reference.trim()) return
    const query = { reference: reference.trim(), entity: entity.trim() || undefined, limit: 50 }
    const found = await run(() => refpayAdmin("GET", "/admin/refpay/search", query))
    if (found) setResult({ query: [query.entity, query.reference].filter(Boolean).join(" / "), ...found })
  }

  return (
    <Container className="divide-y p-0" data-testid="refpay-search">
      <div className="px-6 py-4">
        <Heading level="h2">Find an order by reference</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          The reference a customer quotes, exactly as shown to them (leading zeros count); the entity is optional.
        </Text>
      </div>
      <form className="flex flex-wrap items-end gap-3 px-6 py-4" onSubmit={search}>
        <DigitsField
          id="refpay-search-entity"
          label="Entity"
          width="w-[120px]"
          placeholder="optional"
          value={entity}
          onChange={setEntity}
        />
        <DigitsField
          id="refpay-search-reference"
          label="Reference"
          width="w-[220px]"
          placeholder="e.g. 012 345 678"
          value={reference}
          onChange={setReference}
        />
        <Button
          size="small"
          variant="secondary"
          type="submit"
          isLoading={searching}
          disabled={!reference.trim()}
          data-testid="refpay-search-submit"
        >
          <MagnifyingGlass />
          Search
        </Button>
      </form>
      {error && (
        <div className="px-6 py-4">
          <Alert variant="error">{error}</Alert>
        </div>
      )}
      {result && (
        <div className="flex flex-col" data-testid="refpay-search-results" data-count={result.count}>
          <Text size="small" className="text-ui-fg-subtle px-6 py-3">
            {result.count === 0
              ? `No REFPAY payment has the reference ${result.query}.`
              : `${result.count} payment${result.count === 1 ? "" : "s"} with ${result.query}:`}
          </Text>
          {result.count > 0 && (
            <Table>
              <Table.Header>
                <Table.Row>
                  <PaymentHeaderCells />
                  <Table.HeaderCell>Issued</Table.HeaderCell>
                  <Table.HeaderCell>Payment</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {result.payments.map((row) => (
                  <PaymentRow key={row.payment_session_id} row={row} testId="refpay-search-row" showAccount={several}>
                    <Table.Cell>
                      <Text size="small">{formatDateTime(row.created_at)}</Text>
                    </Table.Cell>
                    <Table.Cell>
                      <Text size="small">{describePayment(row)}</Text>
                    </Table.Cell>
                  </PaymentRow>
                ))}
              </Table.Body>
            </Table>
          )}
        </div>
      )}
    </Container>
  )
}

/** A labelled box for digits as the customer reads them off (numeric keypad on phones, monospaced); id doubles as test id. */
const DigitsField = ({
  id,
  label,
  width,
  placeholder,
  value,
  onChange,
}: {
  id: string
  label: string
  width: string
  placeholder: string
  value: string
  onChange: (value: string) => void
}) => (
  <div className={clx("flex flex-col gap-y-1", width)}>
    <Label size="small" htmlFor={id}>
      {label}
    </Label>
    <Input
      id={id}
      size="small"
      inputMode="numeric"
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className="font-mono"
      data-testid={id}
    />
  </div>
)

function describePayment(row: AdminPaymentRow): string {
  if (row.payment && row.payment.captured_cents > 0) {
    return row.payment.refunded_cents > 0
      ? row.payment.refundable_cents > 0
        ? "Paid, partly refunded"
        : "Paid, refunded"
      : "Paid"
  }
  if (row.session_status === "pending_authorization") return "Awaiting payment"
  if (row.session_status === "canceled") return "Cancelled"
  return row.session_status
}

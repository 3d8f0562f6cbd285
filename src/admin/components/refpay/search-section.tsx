import { MagnifyingGlass } from "@medusajs/icons"
import { Alert, Button, Container, Heading, Input, Label, Table, Text } from "@medusajs/ui"
import { useState, type FormEvent } from "react"
import type { AdminPaymentRow } from "../../../refpay-admin/payment-rows"
import { formatDateTime, refpayAdmin } from "../../lib/refpay-admin-api"
import { OrderCell, ReferenceCell } from "./payment-cells"

/**
 * "Which order is this?": the reference a customer quotes on the phone (the entity too, when they give it), found
 * exactly as typed; spaces, as on an ATM receipt, are ignored.
 */
export const SearchSection = ({ several }: { several: boolean }) => {
  const [entity, setEntity] = useState("")
  const [reference, setReference] = useState("")
  const [searching, setSearching] = useState(false)
  const [result, setResult] = useState<{ query: string; payments: AdminPaymentRow[]; count: number } | null>(null)
  const [error, setError] = useState<string | null>(null)

  const search = async (event: FormEvent) => {
    event.preventDefault()
    if (!reference.trim()) return
    setSearching(true)
    setError(null)
    try {
      const answer = await refpayAdmin<{ payments: AdminPaymentRow[]; count: number }>("GET", "/admin/refpay/search", {
        reference: reference.trim(),
        entity: entity.trim() || undefined,
        limit: 50,
      })
      if (answer.ok) setResult({ query: [entity.trim(), reference.trim()].filter(Boolean).join(" / "), ...answer.body })
      else setError(answer.message)
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setSearching(false)
    }
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
        <div className="flex w-[120px] flex-col gap-y-1">
          <Label size="small" htmlFor="refpay-search-entity">
            Entity
          </Label>
          <Input id="refpay-search-entity" size="small" inputMode="numeric" placeholder="optional" value={entity} onChange={(e) => setEntity(e.target.value)} className="font-mono" data-testid="refpay-search-entity" />
        </div>
        <div className="flex w-[220px] flex-col gap-y-1">
          <Label size="small" htmlFor="refpay-search-reference">
            Reference
          </Label>
          <Input id="refpay-search-reference" size="small" inputMode="numeric" placeholder="e.g. 012 345 678" value={reference} onChange={(e) => setReference(e.target.value)} className="font-mono" data-testid="refpay-search-reference" />
        </div>
        <Button size="small" variant="secondary" type="submit" isLoading={searching} disabled={!reference.trim()} data-testid="refpay-search-submit">
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
                  <Table.HeaderCell>Order</Table.HeaderCell>
                  <Table.HeaderCell>Entity / reference</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Amount</Table.HeaderCell>
                  <Table.HeaderCell>Issued</Table.HeaderCell>
                  <Table.HeaderCell>Payment</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {result.payments.map((row) => (
                  <Table.Row key={row.payment_session_id} data-testid="refpay-search-row" data-order-id={row.order?.id ?? ""}>
                    <Table.Cell>
                      <OrderCell row={row} />
                    </Table.Cell>
                    <Table.Cell>
                      <ReferenceCell row={row} showAccount={several} />
                    </Table.Cell>
                    <Table.Cell className="text-right">
                      <Text size="small">{row.amount_display}</Text>
                    </Table.Cell>
                    <Table.Cell>
                      <Text size="small">{formatDateTime(row.created_at)}</Text>
                    </Table.Cell>
                    <Table.Cell>
                      <Text size="small">{describePayment(row)}</Text>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          )}
        </div>
      )}
    </Container>
  )
}

function describePayment(row: AdminPaymentRow): string {
  if (row.payment && row.payment.captured_cents > 0) {
    return row.payment.refunded_cents > 0 ? (row.payment.refundable_cents > 0 ? "Paid, partly refunded" : "Paid, refunded") : "Paid"
  }
  if (row.session_status === "pending_authorization") return "Awaiting payment"
  if (row.session_status === "canceled") return "Cancelled"
  return row.session_status
}

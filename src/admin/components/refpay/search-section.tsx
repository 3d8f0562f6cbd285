import { MagnifyingGlass } from "@medusajs/icons"
import { Alert, Button, clx, Container, Input, Label, Table, Text } from "@medusajs/ui"
import { useState, type FormEvent } from "react"
import { useTranslation } from "react-i18next"
import type { AdminPaymentRow } from "../../../api/admin/refpay/payment-rows"
import { errorMessage } from "../../lib/errors"
import { countKey, useFormat, type Translate } from "../../lib/format"
import type { PaymentPage, SearchQuery } from "../../lib/refpay-api"
import { useReferenceSearch } from "../../lib/refpay-queries"
import { PaymentHeaderCells, PaymentRow } from "./payment-cells"
import { SectionHeader } from "./section-header"

type SearchResult = PaymentPage & { query: string }

/**
 * "Which order is this?": the reference a customer quotes on the phone (the entity too, when they give it), found
 * exactly as typed; spaces, as on an ATM receipt, are ignored.
 */
export const SearchSection = ({ several }: { several: boolean }) => {
  const { t } = useTranslation()
  // The last result stays on screen while the next search runs, and when it fails.
  const [result, setResult] = useState<SearchResult | null>(null)
  const search = useReferenceSearch()

  const find = (query: SearchQuery) => {
    const shown = [query.entity, query.reference].filter(Boolean).join(" / ")
    search.mutate(query, { onSuccess: (found) => setResult({ query: shown, ...found }) })
  }

  return (
    <Container className="divide-y p-0" data-testid="refpay-search">
      <SectionHeader heading={t("refpay.search.heading")} intro={t("refpay.search.intro")} />
      <SearchForm searching={search.isPending} onSearch={find} />
      {search.error && (
        <div className="px-6 py-4">
          <Alert variant="error">{errorMessage(search.error)}</Alert>
        </div>
      )}
      {result && <SearchResults result={result} several={several} />}
    </Container>
  )
}

/** Entity (optional) and reference as typed; the server ignores the spaces of an ATM receipt's groups. */
const SearchForm = ({ searching, onSearch }: { searching: boolean; onSearch: (query: SearchQuery) => void }) => {
  const { t } = useTranslation()
  const [entity, setEntity] = useState("")
  const [reference, setReference] = useState("")

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!reference.trim()) return
    onSearch({ reference: reference.trim(), entity: entity.trim() || undefined, limit: 50 })
  }

  return (
    <form className="flex flex-wrap items-end gap-3 px-6 py-4" onSubmit={submit}>
      <DigitsField
        id="refpay-search-entity"
        label={t("refpay.search.entity")}
        width="w-[120px]"
        placeholder={t("refpay.search.entityPlaceholder")}
        value={entity}
        onChange={setEntity}
      />
      <DigitsField
        id="refpay-search-reference"
        label={t("refpay.search.reference")}
        width="w-[220px]"
        placeholder={t("refpay.search.referencePlaceholder")}
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
        {t("refpay.search.submit")}
      </Button>
    </form>
  )
}

const SearchResults = ({ result, several }: { result: SearchResult; several: boolean }) => {
  const { t } = useTranslation()
  const { dateTime } = useFormat()
  return (
    <div className="flex flex-col" data-testid="refpay-search-results" data-count={result.count}>
      <Text size="small" className="text-ui-fg-subtle px-6 py-3">
        {result.count === 0
          ? t("refpay.search.none", { query: result.query })
          : t(countKey("refpay.search.found", result.count), { count: result.count, query: result.query })}
      </Text>
      {result.count > 0 && (
        <Table>
          <Table.Header>
            <Table.Row>
              <PaymentHeaderCells />
              <Table.HeaderCell>{t("refpay.search.columns.issued")}</Table.HeaderCell>
              <Table.HeaderCell>{t("refpay.search.columns.payment")}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {result.payments.map((row) => (
              <PaymentRow key={row.payment_session_id} row={row} testId="refpay-search-row" showAccount={several}>
                <Table.Cell>
                  <Text size="small">{dateTime(row.created_at)}</Text>
                </Table.Cell>
                <Table.Cell>
                  <Text size="small">{paymentState(row, t)}</Text>
                </Table.Cell>
              </PaymentRow>
            ))}
          </Table.Body>
        </Table>
      )}
    </div>
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

/** Where the money stands; a session status the admin has no words for is shown as Medusa names it. */
function paymentState(row: AdminPaymentRow, t: Translate): string {
  const payment = row.payment
  if (payment && payment.captured_cents > 0) {
    if (payment.refunded_cents === 0) return t("refpay.search.states.paid")
    return t(
      payment.refundable_cents > 0 ? "refpay.search.states.paidPartlyRefunded" : "refpay.search.states.paidRefunded"
    )
  }
  if (row.session_status === "pending_authorization") return t("refpay.search.states.awaiting")
  if (row.session_status === "canceled") return t("refpay.search.states.cancelled")
  return row.session_status
}

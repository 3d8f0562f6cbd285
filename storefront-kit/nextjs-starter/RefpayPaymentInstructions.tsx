"use client"

// medusa-payment-refpay: Multibanco reference instructions for the order confirmation page of Medusa's Next.js
// starter. Goes to src/modules/order/components/refpay-payment-instructions/index.tsx (refpay.patch puts it there).
// Reads GET /store/refpay/orders/:id through the server action in src/lib/data/refpay.ts (the starter's SDK, with
// its publishable key), shows Entidade, Referência, Montante and Data limite with a copy button each, and polls
// while the reference is awaiting payment. After an expiry the shop may issue a new reference: the page then shows
// the new one and says the earlier one expired. When the shop changes the order after payment so that it owes more
// (an edit, a claim, an exchange), it lists each amount due (GET /store/refpay/orders/:id/payment-requests) with its
// reference, or a button that asks the shop for one (POST on the same route), shown the same way once issued.

import {
  requestRefpayPayment,
  retrieveRefpayPayment,
  retrieveRefpayPaymentRequests,
  type RefpayFailure,
  type RefpayPaymentCollection,
  type RefpayPaymentRequestsResult,
  type RefpayPaymentResult,
  type RefpayPaymentView,
  type RefpayPreviousReference,
} from "@lib/data/refpay"
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react"

// Plain elements with Tailwind classes of @medusajs/ui-preset, so the same file works in nextjs-starter-medusa
// (which uses @medusajs/ui) and dtc-starter (which has its own ui module).
const cx = (...classes: (string | false | null | undefined)[]) => classes.filter(Boolean).join(" ")

/** How often to ask the shop while the reference is awaiting payment, and after an error. */
const POLL_MS = 5000
const RETRY_MS = 15000

const LABELS = {
  heading: "Pagamento por Referência Multibanco",
  entity: "Entidade",
  reference: "Referência",
  amount: "Montante",
  expiry: "Data limite",
  copy: "Copiar",
  copied: "Copiado!",
  copyByHand: "Copie à mão",
  loading: "A carregar os dados de pagamento…",
  error: "Não foi possível obter os dados de pagamento",
  hint: "Pague num Multibanco, no homebanking ou na app do seu banco (Pagamentos > Serviços). Esta página atualiza-se quando o pagamento for confirmado.",
  expired: "A referência expirou. A loja vai enviar-lhe uma nova referência ou contactá-lo.",
  renewed:
    "A referência anterior expirou sem pagamento. Enviámos-lhe uma nova referência por e-mail: pague apenas a referência abaixo.",
  cancelledExpired: "A referência expirou sem pagamento e a encomenda foi cancelada.",
  cancelledUnpaid: "A encomenda foi cancelada: não foi paga.",
  paidAfterCancellation: "O pagamento chegou depois de a encomenda ter sido cancelada. A loja vai contactá-lo.",
  status: {
    awaiting: "A aguardar pagamento",
    paid: "Pago",
    cancelled: "Cancelado",
    failed: "Pagamento falhou",
  } as Record<string, string>,
  outstanding: {
    heading: "Valor adicional da encomenda",
    due: "Valor em falta",
    paid: "Valor pago",
    request: "Obter referência para pagamento",
    requesting: "A obter a referência…",
    requestFailed: "Não foi possível obter a referência",
    error: "Não foi possível verificar se há valores em falta",
  },
}

/** Collection states in which the order owes money on a collection: a reference may be asked for, or is waiting. */
const OWED_STATES: ReadonlySet<string> = new Set(["requestable", "awaiting_refpay"])

const lisbonDate = new Intl.DateTimeFormat("pt-PT", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/Lisbon",
})

/** The deadline in Lisbon time (the platform's instant is kept in dateTime); unparseable values are shown as given. */
function formatExpiry(expiresAt: string): string {
  if (!expiresAt) return "—"
  const instant = new Date(expiresAt)
  return Number.isNaN(instant.getTime()) ? expiresAt : lisbonDate.format(instant)
}

/** An amount Medusa gives in cents, written as the shop writes its amounts (pt-PT: "19,99 €"). */
function formatCents(cents: number, currencyCode: string): string {
  return new Intl.NumberFormat("pt-PT", { style: "currency", currency: currencyCode.toUpperCase() }).format(cents / 100)
}

/** A server action that threw (network, a restarted server) reads as a failed result, so polling carries on. */
function asFailure(err: unknown): RefpayFailure {
  return { ok: false, notFound: false, message: String((err as Error | undefined)?.message ?? err) }
}

/**
 * When to ask about a reference again: soon while it can be paid, slower once past its deadline (the shop may still
 * renew it), never once it is paid, cancelled or failed.
 */
function pollDelay(refpay: RefpayPaymentView | null): number | null {
  if (refpay?.status !== "awaiting") return null
  return refpay.expired ? RETRY_MS : POLL_MS
}

/** The shortest of the delays, or null when nothing needs another look. */
function soonest(delays: (number | null)[]): number | null {
  const pending = delays.filter((delay): delay is number => delay !== null)
  return pending.length ? Math.min(...pending) : null
}

/**
 * Calls `load` now, gives its result to `show`, and calls again after the delay `show` answers (null: stop). Starts
 * over when `load` or `show` change or when the returned function is called; stops when the component unmounts.
 */
function usePolling<T>(load: () => Promise<T>, show: (result: T) => number | null): () => void {
  const [round, setRound] = useState(0)
  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      const result = await load()
      if (stopped) return
      const delay = show(result)
      if (delay !== null) timer = setTimeout(poll, delay)
    }
    void poll()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [load, show, round])
  return useCallback(() => setRound((n) => n + 1), [])
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    // No clipboard API (plain http, older browser, no permission): the old select-and-copy way.
    const area = document.createElement("textarea")
    area.value = text
    area.setAttribute("readonly", "")
    area.style.position = "fixed"
    area.style.opacity = "0"
    document.body.append(area)
    area.select()
    let copied = false
    try {
      copied = document.execCommand("copy")
    } catch {
      copied = false
    }
    area.remove()
    return copied
  }
}

function CopyButton({ value, testId }: { value: string; testId: string }) {
  const [label, setLabel] = useState(LABELS.copy)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), [])

  return (
    <button
      type="button"
      className="txt-small-plus shrink-0 rounded-md border border-ui-border-base px-2 py-1 text-ui-fg-interactive hover:bg-ui-bg-base-hover"
      data-testid={testId}
      onClick={async () => {
        setLabel((await copyText(value)) ? LABELS.copied : LABELS.copyByHand)
        if (timer.current) clearTimeout(timer.current)
        timer.current = setTimeout(() => setLabel(LABELS.copy), 2000)
      }}
    >
      {label}
    </button>
  )
}

function Field({
  label,
  value,
  testId,
  children,
}: {
  label: string
  value: string
  testId: string
  children?: ReactNode
}) {
  return (
    <div className="flex items-center justify-between gap-x-4 py-2">
      <div className="flex flex-col">
        <p className="txt-small text-ui-fg-subtle">{label}</p>
        {/* Entity and reference exactly as the shop returned them: text, never a number, never regrouped. */}
        <p className="txt-xlarge-plus font-mono text-ui-fg-base break-all" data-testid={testId}>
          {children ?? value}
        </p>
      </div>
      <CopyButton value={value} testId={`${testId}-copy`} />
    </div>
  )
}

function statusLabel(refpay: RefpayPaymentView): string {
  if (refpay.expired && refpay.status === "awaiting") return LABELS.expired
  return LABELS.status[refpay.status] ?? refpay.status
}

/**
 * A reference's Entidade, Referência, Montante and Data limite, each with a copy button, its status and, while it can
 * be paid, how to pay it. `testIdPrefix` keeps the checkout reference's test ids apart from an outstanding amount's.
 */
function ReferenceDetails({ refpay, testIdPrefix }: { refpay: RefpayPaymentView; testIdPrefix: string }) {
  return (
    <>
      <div className="flex flex-col divide-y divide-ui-border-base">
        <Field label={LABELS.entity} value={refpay.entity} testId={`${testIdPrefix}-entity`} />
        <Field label={LABELS.reference} value={refpay.reference} testId={`${testIdPrefix}-reference`} />
        <Field label={LABELS.amount} value={refpay.amount_display} testId={`${testIdPrefix}-amount`} />
        <Field label={LABELS.expiry} value={formatExpiry(refpay.expires_at)} testId={`${testIdPrefix}-expiry`}>
          <time dateTime={refpay.expires_at} title={refpay.expires_at}>
            {formatExpiry(refpay.expires_at)}
          </time>
        </Field>
      </div>

      <p
        className={cx(
          "txt-medium-plus",
          refpay.status === "awaiting" && !refpay.expired && "text-ui-fg-interactive",
          refpay.status === "paid" && "text-ui-tag-green-text",
          (refpay.status === "cancelled" || refpay.status === "failed" || refpay.expired) && "text-ui-fg-error"
        )}
        data-testid={`${testIdPrefix}-status`}
        data-status={refpay.status}
        role="status"
        aria-live="polite"
      >
        Estado: {statusLabel(refpay)}
      </p>

      {refpay.status === "awaiting" && !refpay.expired && <p className="txt-small text-ui-fg-subtle">{LABELS.hint}</p>}
    </>
  )
}

/** What the shopper must know about earlier references: a renewal after expiry, or an order cancelled unpaid. */
function noteFor(refpay: RefpayPaymentView, previous: RefpayPreviousReference[]): string | null {
  if (refpay.status === "awaiting" && !refpay.expired && previous.some((p) => p.expired)) return LABELS.renewed
  if (refpay.status === "cancelled") return refpay.expired ? LABELS.cancelledExpired : LABELS.cancelledUnpaid
  return null
}

/** One amount the order owes: its reference, or a button that asks the shop for one. */
function OutstandingAmount({
  orderId,
  collection,
  onIssued,
}: {
  orderId: string
  collection: RefpayPaymentCollection
  onIssued: (collection: RefpayPaymentCollection) => void
}) {
  const [requesting, setRequesting] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const request = async () => {
    setRequesting(true)
    setError(null)
    const result = await requestRefpayPayment(orderId, collection.id).catch(asFailure)
    setRequesting(false)
    if (result.ok) onIssued(result.collection)
    else setError(result.message)
  }

  return (
    <div
      className="flex flex-col gap-y-2"
      data-testid="refpay-outstanding-item"
      data-collection-id={collection.id}
      data-state={collection.state}
    >
      <p className="txt-medium-plus text-ui-fg-base" data-testid="refpay-outstanding-due">
        {collection.state === "paid" ? LABELS.outstanding.paid : LABELS.outstanding.due}:{" "}
        {formatCents(collection.amount_cents, collection.currency_code)}
      </p>
      {collection.state === "requestable" ? (
        <button
          type="button"
          className="txt-compact-small-plus self-start rounded-md bg-ui-button-inverted px-3 py-1.5 text-ui-contrast-fg-primary shadow-buttons-inverted hover:bg-ui-button-inverted-hover disabled:bg-ui-bg-disabled disabled:text-ui-fg-disabled"
          data-testid="refpay-outstanding-request"
          disabled={requesting}
          onClick={() => void request()}
        >
          {requesting ? LABELS.outstanding.requesting : LABELS.outstanding.request}
        </button>
      ) : (
        collection.refpay && <ReferenceDetails refpay={collection.refpay} testIdPrefix="refpay-outstanding" />
      )}
      {error && (
        <p className="txt-small text-ui-fg-error" data-testid="refpay-outstanding-request-error">
          {LABELS.outstanding.requestFailed}: {error}
        </p>
      )}
    </div>
  )
}

/**
 * What the order owes beyond the checkout reference (`checkoutSessionId`'s collection is that reference's). An amount
 * listed stays listed once paid, so the shopper sees it turn paid; polled while one of them awaits payment.
 */
function OutstandingAmounts({ orderId, checkoutSessionId }: { orderId: string; checkoutSessionId: string }) {
  const [listed, setListed] = useState<RefpayPaymentCollection[]>([])
  const [error, setError] = useState<string | null>(null)

  const load = useCallback(() => retrieveRefpayPaymentRequests(orderId).catch(asFailure), [orderId])
  const show = useCallback(
    (result: RefpayPaymentRequestsResult) => {
      // A shop without this route (an older plugin) answers 404: nothing to list, nothing to retry.
      if (!result.ok && result.notFound) return null
      if (!result.ok) {
        setError(result.message)
        return RETRY_MS
      }
      setError(null)
      const others = result.requests.collections.filter((c) => c.refpay?.payment_session_id !== checkoutSessionId)
      setListed((before) => others.filter((c) => OWED_STATES.has(c.state) || before.some((b) => b.id === c.id)))
      return soonest(others.map((c) => pollDelay(c.refpay)))
    },
    [checkoutSessionId]
  )
  const restart = usePolling(load, show)
  const issued = useCallback(
    (collection: RefpayPaymentCollection) => {
      setListed((before) => before.map((c) => (c.id === collection.id ? collection : c)))
      restart()
    },
    [restart]
  )

  if (!listed.length && !error) return null
  return (
    <div className="mt-4 flex flex-col gap-y-4 border-t border-ui-border-base pt-4" data-testid="refpay-outstanding">
      <h4 className="txt-medium-plus text-ui-fg-base">{LABELS.outstanding.heading}</h4>
      {listed.map((collection) => (
        <OutstandingAmount key={collection.id} orderId={orderId} collection={collection} onIssued={issued} />
      ))}
      {error && (
        <p className="txt-small text-ui-fg-error" data-testid="refpay-outstanding-error">
          {LABELS.outstanding.error}: {error}
        </p>
      )}
    </div>
  )
}

type RefpayPaymentInstructionsProps = {
  orderId: string
}

export default function RefpayPaymentInstructions({ orderId }: RefpayPaymentInstructionsProps) {
  const [refpay, setRefpay] = useState<RefpayPaymentView | null>(null)
  const [previous, setPrevious] = useState<RefpayPreviousReference[]>([])
  const [error, setError] = useState<string | null>(null)
  const [notRefpay, setNotRefpay] = useState(false)

  const load = useCallback(() => retrieveRefpayPayment(orderId).catch(asFailure), [orderId])
  const show = useCallback((result: RefpayPaymentResult) => {
    if (result.ok) {
      setRefpay(result.refpay)
      setPrevious(result.previous ?? [])
      setError(null)
      // Keep asking while the customer may still pay, or an expired reference may still be renewed.
      return pollDelay(result.refpay)
    }
    if (result.notFound) {
      // Not a REFPAY order (or no reference yet): nothing to show.
      setNotRefpay(true)
      return null
    }
    setError(result.message)
    return RETRY_MS
  }, [])
  usePolling(load, show)

  if (notRefpay) return null

  return (
    <section
      className="mt-6 flex flex-col gap-y-2 rounded-lg border border-ui-border-base bg-ui-bg-base p-6 shadow-elevation-card-rest"
      data-testid="refpay-payment-instructions"
      aria-label={LABELS.heading}
    >
      <h3 className="txt-large-plus text-ui-fg-base">{LABELS.heading}</h3>

      {!refpay && !error && <p className="txt-medium text-ui-fg-subtle">{LABELS.loading}</p>}

      {refpay && (
        <>
          <ReferenceDetails refpay={refpay} testIdPrefix="refpay" />
          {noteFor(refpay, previous) && (
            <p className="txt-small-plus text-ui-fg-base" data-testid="refpay-note">
              {noteFor(refpay, previous)}
            </p>
          )}
          {refpay.paid_after_cancellation && (
            <p className="txt-small text-ui-fg-error">{LABELS.paidAfterCancellation}</p>
          )}
        </>
      )}

      {error && (
        <p className="txt-small text-ui-fg-error" data-testid="refpay-error">
          {LABELS.error}: {error}
        </p>
      )}

      {refpay && (
        <OutstandingAmounts
          key={refpay.payment_session_id}
          orderId={orderId}
          checkoutSessionId={refpay.payment_session_id}
        />
      )}
    </section>
  )
}

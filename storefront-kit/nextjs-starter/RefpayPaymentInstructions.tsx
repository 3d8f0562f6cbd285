"use client"

// medusa-payment-refpay: Multibanco reference instructions for the order confirmation page of Medusa's Next.js
// starter. Goes to src/modules/order/components/refpay-payment-instructions/index.tsx (refpay.patch puts it there).
// Reads GET /store/refpay/orders/:id through the server action in src/lib/data/refpay.ts (the starter's SDK, with
// its publishable key), shows Entidade, Referência, Montante and Data limite with a copy button each, and polls
// while the reference is awaiting payment. After an expiry the shop may issue a new reference: the page then shows
// the new one and says the earlier one expired.

import { retrieveRefpayPayment, type RefpayPaymentView, type RefpayPreviousReference } from "@lib/data/refpay"
import { useEffect, useRef, useState, type ReactNode } from "react"

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
}

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

/** What the shopper must know about earlier references: a renewal after expiry, or an order cancelled unpaid. */
function noteFor(refpay: RefpayPaymentView, previous: RefpayPreviousReference[]): string | null {
  if (refpay.status === "awaiting" && !refpay.expired && previous.some((p) => p.expired)) return LABELS.renewed
  if (refpay.status === "cancelled") return refpay.expired ? LABELS.cancelledExpired : LABELS.cancelledUnpaid
  return null
}

type RefpayPaymentInstructionsProps = {
  orderId: string
}

export default function RefpayPaymentInstructions({ orderId }: RefpayPaymentInstructionsProps) {
  const [refpay, setRefpay] = useState<RefpayPaymentView | null>(null)
  const [previous, setPrevious] = useState<RefpayPreviousReference[]>([])
  const [error, setError] = useState<string | null>(null)
  const [notRefpay, setNotRefpay] = useState(false)

  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | null = null

    const poll = async () => {
      const result = await retrieveRefpayPayment(orderId).catch(
        (err: unknown) =>
          ({ ok: false, notFound: false, message: String((err as Error | undefined)?.message ?? err) }) as const
      )
      if (stopped) return
      if (result.ok) {
        setRefpay(result.refpay)
        setPrevious(result.previous ?? [])
        setError(null)
        // Keep asking while the customer may still pay, or an expired reference may still be renewed; stop on paid,
        // cancelled or failed.
        if (result.refpay.status === "awaiting") {
          timer = setTimeout(poll, result.refpay.expired ? RETRY_MS : POLL_MS)
        }
        return
      }
      if (result.notFound) {
        // Not a REFPAY order (or no reference yet): nothing to show.
        setNotRefpay(true)
        return
      }
      setError(result.message)
      timer = setTimeout(poll, RETRY_MS)
    }

    void poll()
    return () => {
      stopped = true
      if (timer) clearTimeout(timer)
    }
  }, [orderId])

  if (notRefpay) return null

  const statusLabel = refpay
    ? refpay.expired && refpay.status === "awaiting"
      ? LABELS.expired
      : (LABELS.status[refpay.status] ?? refpay.status)
    : null

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
          <div className="flex flex-col divide-y divide-ui-border-base">
            <Field label={LABELS.entity} value={refpay.entity} testId="refpay-entity" />
            <Field label={LABELS.reference} value={refpay.reference} testId="refpay-reference" />
            <Field label={LABELS.amount} value={refpay.amount_display} testId="refpay-amount" />
            <Field label={LABELS.expiry} value={formatExpiry(refpay.expires_at)} testId="refpay-expiry">
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
            data-testid="refpay-status"
            data-status={refpay.status}
            role="status"
            aria-live="polite"
          >
            Estado: {statusLabel}
          </p>

          {refpay.status === "awaiting" && !refpay.expired && (
            <p className="txt-small text-ui-fg-subtle">{LABELS.hint}</p>
          )}
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
    </section>
  )
}

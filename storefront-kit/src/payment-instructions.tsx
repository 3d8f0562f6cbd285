"use client"
import { RefpayOutstandingAmounts } from "./outstanding-amounts.js"
import { RefpayReferenceDetails } from "./reference-details.js"
import { textsFor, type RefpayLocale, type RefpayTexts } from "./texts.js"
import type { RefpayPaymentView, RefpayPreviousReference } from "./types.js"
import { useRefpayClient, type RefpayConnection } from "./connection.js"
import { useRefpayOrderPayment } from "./use-refpay.js"

export type RefpayPaymentInstructionsProps = RefpayConnection & {
  orderId: string
  locale?: RefpayLocale
  /** Added to the box's own `refpay-box` class (a Tailwind margin, say). */
  className?: string
}

/** What the shopper must know about earlier references: a renewal after expiry, or an order cancelled unpaid. */
function noteFor(refpay: RefpayPaymentView, previous: RefpayPreviousReference[], texts: RefpayTexts): string | null {
  if (refpay.status === "awaiting" && !refpay.expired && previous.some((p) => p.expired)) return texts.renewed
  if (refpay.status === "cancelled") return refpay.expired ? texts.cancelledExpired : texts.cancelledUnpaid
  return null
}

/**
 * The order page's REFPAY box: entity, reference, amount and deadline exactly as the shop returned them, with copy
 * buttons; the status, turning "Pago" without a reload; the expired-and-renewed wording; and what the order still
 * owes after an edit, each amount with its reference or a button to ask for one. Renders nothing for an order not
 * paid with REFPAY.
 */
export function RefpayPaymentInstructions(props: RefpayPaymentInstructionsProps) {
  const { orderId, locale = "pt", className } = props
  const client = useRefpayClient(props)
  const texts = textsFor(locale)
  const { refpay, previous, error, notFound } = useRefpayOrderPayment(client, orderId)
  if (notFound) return null
  const note = refpay && noteFor(refpay, previous, texts)
  return (
    <section
      className={className ? `refpay-box ${className}` : "refpay-box"}
      data-testid="refpay-payment-instructions"
      aria-label={texts.heading}
      lang={locale === "pt" ? "pt-PT" : "en"}
    >
      <h3 className="refpay-heading">{texts.heading}</h3>
      {!refpay && !error && <p className="refpay-hint">{texts.loading}</p>}
      {refpay && (
        <>
          <RefpayReferenceDetails refpay={refpay} texts={texts} locale={locale} />
          {note && (
            <p className="refpay-note" data-testid="refpay-note">
              {note}
            </p>
          )}
          {refpay.paid_after_cancellation && <p className="refpay-error">{texts.paidAfterCancellation}</p>}
        </>
      )}
      {error && (
        <p className="refpay-error" data-testid="refpay-error">
          {texts.error}: {error}
        </p>
      )}
      {refpay && (
        <RefpayOutstandingAmounts
          key={refpay.payment_session_id}
          client={client}
          orderId={orderId}
          checkoutSessionId={refpay.payment_session_id}
          locale={locale}
        />
      )}
    </section>
  )
}

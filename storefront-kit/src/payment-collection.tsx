"use client"
import { RefpayAmountDue } from "./outstanding-amounts.js"
import { textsFor, type RefpayLocale } from "./texts.js"
import { useRefpayClient, type RefpayConnection } from "./connection.js"
import { useRefpayPaymentCollection } from "./use-refpay.js"

export type RefpayPaymentCollectionProps = RefpayConnection & {
  /** The id in Medusa's payment link, `<storefront>/payment-collection/<id>`. */
  paymentCollectionId: string
  locale?: RefpayLocale
  className?: string
}

/**
 * The page Medusa's admin "Copy payment link" points at: what that payment collection owes and its REFPAY
 * reference, or a button asking the shop for one (refused, with the shop's sentence, where the shop does not allow
 * it). The status turns "Pago" without a reload.
 */
export function RefpayPaymentCollection(props: RefpayPaymentCollectionProps) {
  const { paymentCollectionId, locale = "pt", className } = props
  const client = useRefpayClient(props)
  const texts = textsFor(locale)
  const state = useRefpayPaymentCollection(client, paymentCollectionId)
  const collection = state.answer?.payment_collection
  const message = state.notFound
    ? texts.link.notFound
    : collection?.state === "nothing_due"
      ? texts.link.nothingDue
      : collection?.state === "requestable" && !state.answer?.refpay_available
        ? texts.link.unavailable
        : collection?.state === "paid" && !collection.refpay
          ? texts.link.paidElsewhere
          : null
  return (
    <section
      className={className ? `refpay-box ${className}` : "refpay-box"}
      data-testid="refpay-payment-collection"
      aria-label={texts.link.heading}
      lang={locale === "pt" ? "pt-PT" : "en"}
    >
      <h2 className="refpay-heading">{texts.link.heading}</h2>
      {!collection && !state.error && !state.notFound && <p className="refpay-hint">{texts.loading}</p>}
      {message && (
        <p className="refpay-note" data-testid="refpay-link-message">
          {message}
        </p>
      )}
      {collection && collection.state !== "nothing_due" && (
        <RefpayAmountDue
          collection={collection}
          texts={texts}
          locale={locale}
          requestable={state.answer?.refpay_available}
          onRequest={async () => {
            await state.request()
            return null
          }}
        />
      )}
      {state.requestError && (
        <p className="refpay-error" role="alert" data-testid="refpay-link-request-error">
          {texts.outstanding.requestFailed}: {state.requestError}
        </p>
      )}
      {state.error && (
        <p className="refpay-error" data-testid="refpay-error">
          {texts.error}: {state.error}
        </p>
      )}
    </section>
  )
}

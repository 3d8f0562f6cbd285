"use client"
import { useCallback, useState } from "react"
import { formatRefpayCents } from "./format.js"
import { pollDelay, REFPAY_RETRY_MS, soonest, usePolling } from "./polling.js"
import { RefpayReferenceDetails } from "./reference-details.js"
import { textsFor, type RefpayLocale, type RefpayTexts } from "./texts.js"
import { useRefpayClient, type RefpayConnection } from "./connection.js"
import type { RefpayPaymentCollection, RefpayResult, RefpayPaymentRequests } from "./types.js"

/** Collection states in which the order owes money: a reference may be asked for, or is waiting. */
const OWED_STATES: ReadonlySet<string> = new Set(["requestable", "awaiting_refpay"])

/** One amount due: the amount, then its reference, or a button asking the shop for one. */
export function RefpayAmountDue(props: {
  collection: RefpayPaymentCollection
  texts: RefpayTexts
  locale: RefpayLocale
  /** Asks for the reference; resolves to the refusal's message, or null once issued. */
  onRequest: () => Promise<string | null>
  /** False where the shop has no REFPAY for this amount: no button. */
  requestable?: boolean
}) {
  const { collection, texts } = props
  const [requesting, setRequesting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const request = async () => {
    setRequesting(true)
    setError(null)
    setError(await props.onRequest())
    setRequesting(false)
  }
  return (
    <div
      className="refpay-due"
      data-testid="refpay-outstanding-item"
      data-collection-id={collection.id}
      data-state={collection.state}
    >
      <p className="refpay-due-amount" data-testid="refpay-outstanding-due">
        {collection.state === "paid" ? texts.outstanding.paid : texts.outstanding.due}:{" "}
        {formatRefpayCents(collection.amount_cents, collection.currency_code)}
      </p>
      {collection.state === "requestable" && props.requestable !== false ? (
        <button
          type="button"
          className="refpay-button"
          data-testid="refpay-outstanding-request"
          disabled={requesting}
          aria-busy={requesting}
          onClick={() => void request()}
        >
          {requesting ? texts.outstanding.requesting : texts.outstanding.request}
        </button>
      ) : (
        collection.refpay && (
          <RefpayReferenceDetails
            refpay={collection.refpay}
            texts={texts}
            locale={props.locale}
            testIdPrefix="refpay-outstanding"
          />
        )
      )}
      {error && (
        <p className="refpay-error" role="alert" data-testid="refpay-outstanding-request-error">
          {texts.outstanding.requestFailed}: {error}
        </p>
      )}
    </div>
  )
}

export type RefpayOutstandingAmountsProps = RefpayConnection & {
  orderId: string
  /** The checkout reference's session: its collection is shown by the payment instructions, not here. */
  checkoutSessionId?: string
  locale?: RefpayLocale
}

/**
 * What an order owes beyond its checkout (an edit, a claim, an exchange), each amount with its reference or a button
 * asking for one. An amount listed stays listed once paid, so the shopper sees it turn paid; polled while one awaits.
 */
export function RefpayOutstandingAmounts(props: RefpayOutstandingAmountsProps) {
  const { orderId, checkoutSessionId, locale = "pt" } = props
  const client = useRefpayClient(props)
  const texts = textsFor(locale)
  const [listed, setListed] = useState<RefpayPaymentCollection[]>([])
  const [error, setError] = useState<string | null>(null)

  const load = useCallback(() => client.paymentRequests(orderId), [client, orderId])
  const show = useCallback(
    (result: RefpayResult<RefpayPaymentRequests>) => {
      // A shop without this route (an older plugin) answers 404: nothing to list, nothing to retry.
      if (!result.ok && result.notFound) return null
      if (!result.ok) {
        setError(result.message)
        return REFPAY_RETRY_MS
      }
      setError(null)
      const others = result.data.collections.filter((c) => c.refpay?.payment_session_id !== checkoutSessionId)
      setListed((before) => others.filter((c) => OWED_STATES.has(c.state) || before.some((b) => b.id === c.id)))
      return soonest(others.map((c) => pollDelay(c.refpay)))
    },
    [checkoutSessionId]
  )
  const restart = usePolling(load, show)
  const request = (collectionId: string) => async () => {
    const result = await client.requestPayment(orderId, collectionId)
    if (!result.ok) return result.message
    setListed((before) => before.map((c) => (c.id === collectionId ? result.data : c)))
    restart()
    return null
  }

  if (!listed.length && !error) return null
  return (
    <div className="refpay-outstanding" data-testid="refpay-outstanding">
      <h4 className="refpay-subheading">{texts.outstanding.heading}</h4>
      {listed.map((collection) => (
        <RefpayAmountDue
          key={collection.id}
          collection={collection}
          texts={texts}
          locale={locale}
          onRequest={request(collection.id)}
        />
      ))}
      {error && (
        <p className="refpay-error" data-testid="refpay-outstanding-error">
          {texts.outstanding.error}: {error}
        </p>
      )}
    </div>
  )
}

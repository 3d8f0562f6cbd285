import { useCallback, useState } from "react"
import type { RefpayClient } from "./client.js"
import { pollDelay, REFPAY_RETRY_MS, soonest, usePolling } from "./polling.js"
import type { RefpayPaymentCollectionAnswer, RefpayPaymentView, RefpayPreviousReference } from "./types.js"

export interface RefpayOrderPaymentState {
  refpay: RefpayPaymentView | null
  previous: RefpayPreviousReference[]
  /** The last call's failure message; cleared by the next success. */
  error: string | null
  /** Not a REFPAY order (or no reference yet): a page shows nothing. */
  notFound: boolean
}

/**
 * An order's REFPAY reference (`GET /store/refpay/orders/:id`), asked again while it can still be paid or renewed,
 * so a page turns "Pago" without a reload.
 */
export function useRefpayOrderPayment(client: RefpayClient, orderId: string): RefpayOrderPaymentState {
  const [state, setState] = useState<RefpayOrderPaymentState>({
    refpay: null,
    previous: [],
    error: null,
    notFound: false,
  })
  const load = useCallback(() => client.orderPayment(orderId), [client, orderId])
  const show = useCallback((result: Awaited<ReturnType<typeof load>>) => {
    if (result.ok) {
      setState({
        refpay: result.data.refpay,
        previous: result.data.previous_references ?? [],
        error: null,
        notFound: false,
      })
      return pollDelay(result.data.refpay)
    }
    if (result.notFound) {
      setState((before) => ({ ...before, notFound: true }))
      return null
    }
    setState((before) => ({ ...before, error: result.message }))
    return REFPAY_RETRY_MS
  }, [])
  usePolling(load, show)
  return state
}

export interface RefpayPaymentCollectionState {
  answer: RefpayPaymentCollectionAnswer | null
  error: string | null
  notFound: boolean
  /** Asks the shop for the collection's reference; the answer replaces `answer` (a refusal lands in `requestError`). */
  request: () => Promise<void>
  requesting: boolean
  requestError: string | null
}

/**
 * What a payment collection owes and its reference (`GET /store/refpay/payment-collections/:id`, the page Medusa's
 * "Copy payment link" points at), asked again while a reference is awaiting payment.
 */
export function useRefpayPaymentCollection(
  client: RefpayClient,
  paymentCollectionId: string
): RefpayPaymentCollectionState {
  const [answer, setAnswer] = useState<RefpayPaymentCollectionAnswer | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [notFound, setNotFound] = useState(false)
  const [requesting, setRequesting] = useState(false)
  const [requestError, setRequestError] = useState<string | null>(null)

  const load = useCallback(() => client.paymentCollection(paymentCollectionId), [client, paymentCollectionId])
  const show = useCallback((result: Awaited<ReturnType<typeof load>>) => {
    if (result.ok) {
      setAnswer(result.data)
      setError(null)
      const collection = result.data.payment_collection
      // A reference being issued elsewhere (state awaiting, no reference yet): look again soon.
      return soonest([
        pollDelay(collection.refpay),
        collection.state === "awaiting_refpay" && !collection.refpay ? REFPAY_RETRY_MS : null,
      ])
    }
    if (result.notFound) {
      setNotFound(true)
      return null
    }
    setError(result.message)
    return REFPAY_RETRY_MS
  }, [])
  const restart = usePolling(load, show)

  const request = useCallback(async () => {
    setRequesting(true)
    setRequestError(null)
    const result = await client.requestPaymentCollection(paymentCollectionId)
    setRequesting(false)
    if (result.ok) setAnswer(result.data)
    else setRequestError(result.message)
    restart()
  }, [client, paymentCollectionId, restart])

  return { answer, error, notFound, request, requesting, requestError }
}

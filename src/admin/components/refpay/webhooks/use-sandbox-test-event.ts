import { useMutation, useQuery } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { useTranslation } from "react-i18next"
import type { DeliveryView } from "../../../../api/admin/refpay/webhooks/deliveries/delivery-view"
import { sayConnectionText, sayTestEventText } from "../../../lib/server-texts"
import { isServerAnswer, errorMessage } from "../../../lib/errors"
import { refpayKeys } from "../../../lib/query-keys"
import { refpayApi } from "../../../lib/refpay-api"
import { useRefreshWebhooks } from "../../../lib/refpay-queries"

/** How long the owner is kept waiting for the test delivery before being told it did not come. */
export const TEST_WAIT_MS = 20_000
const POLL_EVERY_MS = 1000

/** Where a test stands; `failed` carries the server's message, or null for "could not be sent". */
export type TestEventState =
  | { state: "idle" }
  | { state: "sending" }
  | { state: "waiting"; message: string; summary: string | null }
  | { state: "arrived"; delivery: DeliveryView }
  | { state: "timed_out"; summary: string | null }
  | { state: "failed"; message: string | null }

type Sent = { paymentId: string; message: string }
type Ended =
  { state: "arrived"; delivery: DeliveryView } | { state: "timed_out" } | { state: "failed"; message: string | null }

/**
 * Sandbox only: sends a throwaway payment whose PENDING_TRANSACTIONS webhook the owner then sees arrive, asking every
 * second whether it did, for at most TEST_WAIT_MS. When the wait ends either way, the deliveries are asked again.
 */
export function useSandboxTestEvent(providerId: string): { test: TestEventState; send: () => void } {
  const { t } = useTranslation()
  const refreshWebhooks = useRefreshWebhooks()
  const [sent, setSent] = useState<Sent | null>(null)
  const [ended, setEnded] = useState<Ended | null>(null)

  const sending = useMutation({
    mutationFn: async () => (await refpayApi.sendTestEvent(providerId)).test_event,
    onMutate: () => {
      setSent(null)
      setEnded(null)
    },
    onSuccess: (result) =>
      result.sent
        ? setSent({ paymentId: result.payment_id, message: sayTestEventText(t, result.message) })
        : setEnded({
            state: "failed",
            message: [sayTestEventText(t, result.message), result.problem && sayConnectionText(t, result.problem)]
              .filter(Boolean)
              .join(" "),
          }),
    // Only the server's own words are worth showing; anything else reads as "could not be sent".
    onError: (error) => setEnded({ state: "failed", message: isServerAnswer(error) ? errorMessage(error) : null }),
  })

  const waiting = sent !== null && ended === null
  const progress = useQuery({
    queryKey: refpayKeys.testEvent(sent?.paymentId ?? null, providerId),
    queryFn: async () => (await refpayApi.testEventProgress(sent!.paymentId, providerId)).test_event,
    enabled: waiting,
    refetchInterval: POLL_EVERY_MS,
    retry: false,
    staleTime: 0,
  })
  const arrived = progress.data?.arrived ? progress.data.deliveries[0] : undefined

  useEffect(() => {
    if (!waiting || !arrived) return
    setEnded({ state: "arrived", delivery: arrived })
    refreshWebhooks()
  }, [waiting, arrived, refreshWebhooks])

  useEffect(() => {
    if (!waiting) return
    const timer = setTimeout(() => {
      setEnded({ state: "timed_out" })
      refreshWebhooks()
    }, TEST_WAIT_MS)
    return () => clearTimeout(timer)
  }, [waiting, refreshWebhooks])

  const reported = progress.data?.sandbox_summary
  const summary = reported ? sayTestEventText(t, reported) : null
  const test: TestEventState = sending.isPending
    ? { state: "sending" }
    : ended?.state === "timed_out"
      ? { state: "timed_out", summary }
      : (ended ?? (sent ? { state: "waiting", message: sent.message, summary } : { state: "idle" }))
  return { test, send: () => sending.mutate() }
}

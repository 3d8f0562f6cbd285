import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useCallback } from "react"
import type { AttentionKind } from "../../rules/attention-kinds"
import { isNotFound } from "./errors"
import { refpayKeys } from "./query-keys"
import { refpayApi, type DeliveryStatus, type NumbersQuery, type NumbersView, type SearchQuery } from "./refpay-api"

/**
 * How every REFPAY read behaves, whatever the dashboard's defaults (fresh for 90 s, one retry): asked again each
 * time a section mounts, since payments change state on their own, and a failure shown at once rather than after a
 * silent retry.
 */
const live = { staleTime: 0, retry: false } as const
/** Turning a page or changing a filter keeps the last answer on screen until the next one arrives. */
const paged = { ...live, placeholderData: keepPreviousData } as const

export function useRefpaySettings(providerId: string | undefined) {
  return useQuery({
    queryKey: refpayKeys.settings(providerId),
    queryFn: () => refpayApi.settings(providerId),
    ...paged,
  })
}

/** One view of the owner's numbers for an account and period; the last answer stays while the next loads. */
export function useOwnerNumbers<V extends NumbersView>(view: V, query: NumbersQuery) {
  return useQuery({
    queryKey: refpayKeys.numbers(view, query),
    queryFn: () => refpayApi.numbers(view, query),
    ...paged,
  })
}

/** Shared by the order list's banner and the REFPAY page's tabs: one request, one cache entry. */
export function useAttentionCounts() {
  return useQuery({
    queryKey: refpayKeys.attentionCounts(),
    queryFn: async () => (await refpayApi.attentionCounts()).counts,
    ...live,
  })
}

export function useAttentionList(kind: AttentionKind, page: number, pageSize: number) {
  return useQuery({
    queryKey: refpayKeys.attentionList(kind, page),
    queryFn: () => refpayApi.attentionList(kind, pageSize, page * pageSize),
    ...paged,
  })
}

export function useWebhookSetup(providerId: string) {
  return useQuery({
    queryKey: refpayKeys.webhookSetup(providerId),
    queryFn: async () => (await refpayApi.webhooks(providerId)).webhooks,
    ...live,
  })
}

export function useDeliveries(status: DeliveryStatus | "all", page: number, pageSize: number) {
  return useQuery({
    queryKey: refpayKeys.deliveries(status, page),
    queryFn: () => refpayApi.deliveries(status === "all" ? undefined : status, pageSize, page * pageSize),
    ...paged,
  })
}

/** The order's REFPAY payment, or null for an order paid otherwise (the route answers 404). */
export function useOrderRefpay(orderId: string) {
  return useQuery({
    queryKey: refpayKeys.order(orderId),
    queryFn: async () => {
      try {
        return (await refpayApi.order(orderId)).refpay
      } catch (error) {
        if (isNotFound(error)) return null
        throw error
      }
    },
    ...live,
  })
}

/**
 * The order's payment collections and what it still owes. Answered for any order, REFPAY or not: the panel decides
 * from it whether REFPAY has anything to offer (`listsPaymentRequests`).
 */
export function useOrderPaymentRequests(orderId: string) {
  return useQuery({
    queryKey: refpayKeys.paymentRequests(orderId),
    queryFn: () => refpayApi.paymentRequests(orderId),
    ...live,
  })
}

/** Asks the webhook status and every page of deliveries again. */
export function useRefreshWebhooks(): () => void {
  const queryClient = useQueryClient()
  return useCallback(() => void queryClient.invalidateQueries({ queryKey: refpayKeys.webhooks }), [queryClient])
}

export function useConnectionTest(providerId: string) {
  return useMutation({
    mutationFn: async () => (await refpayApi.testConnection(providerId)).connection,
  })
}

export function useReferenceSearch() {
  return useMutation({ mutationFn: (query: SearchQuery) => refpayApi.search(query) })
}

/** A refund changes both the list it was made from and the tab counts (and the order list's banner). */
export function useRefundLatePayment() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (paymentSessionId: string) => refpayApi.refundLatePayment(paymentSessionId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: refpayKeys.attention }),
  })
}

export function useCheckOrderNow(orderId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => (await refpayApi.checkOrderNow(orderId)).refpay,
    onSuccess: (view) => {
      queryClient.setQueryData(refpayKeys.order(orderId), view)
      // The check covers every REFPAY session of the order: a requested payment may have landed on its collection.
      // Not awaited: the toast says what the check found without waiting for the list.
      void queryClient.invalidateQueries({ queryKey: refpayKeys.paymentRequests(orderId) })
    },
    // A check that failed was still recorded (e.g. the platform does not know the reference): show it.
    onError: () => queryClient.invalidateQueries({ queryKey: refpayKeys.order(orderId) }),
  })
}

export function useIssueNewReference(orderId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => (await refpayApi.issueNewReference(orderId)).refpay,
    onSuccess: (view) => {
      queryClient.setQueryData(refpayKeys.order(orderId), view)
      // Not awaited: the new view hides this button at once, and its toast must come before that.
      void queryClient.invalidateQueries({ queryKey: refpayKeys.paymentRequests(orderId) })
    },
  })
}

/**
 * "Request payment by REFPAY" for one collection, or, without one, for what the order owes. The new reference shows
 * in its collection and in the panel (an order created in the admin gets its first REFPAY payment): both are asked
 * again before the button is released.
 */
export function useRequestPayment(orderId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (paymentCollectionId: string | undefined) => refpayApi.requestPayment(orderId, paymentCollectionId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: refpayKeys.order(orderId) }),
    // Refused because the order changed meanwhile (paid, edited again): show it as it now is.
    onError: () => queryClient.invalidateQueries({ queryKey: refpayKeys.paymentRequests(orderId) }),
  })
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useCallback } from "react"
import type { AttentionKind } from "../../admin-backend/attention"
import { isNotFound } from "./errors"
import { refpayKeys } from "./query-keys"
import { refpayApi, type DeliveryStatus, type SearchQuery } from "./refpay-api"

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
    onSuccess: (view) => queryClient.setQueryData(refpayKeys.order(orderId), view),
    // A check that failed was still recorded (e.g. the platform does not know the reference): show it.
    onError: () => queryClient.invalidateQueries({ queryKey: refpayKeys.order(orderId) }),
  })
}

export function useIssueNewReference(orderId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => (await refpayApi.issueNewReference(orderId)).refpay,
    onSuccess: (view) => queryClient.setQueryData(refpayKeys.order(orderId), view),
  })
}

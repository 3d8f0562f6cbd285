import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { MEDUSA_WEBHOOK_EVENT } from "../medusa-compat/medusa-webhook-route"
import { isRefpayProviderId, providerIdFromRoute } from "../rules/provider-ids"
import { handleRefpayWebhook } from "../sync-triggers/webhook/handle-webhook"

interface WebhookReceived {
  provider: string
  payload: {
    data?: unknown
    rawData?: Buffer | { type: "Buffer"; data: number[] } | string
    headers?: Record<string, unknown>
  }
}

/**
 * Medusa's webhook route (`POST /hooks/payment/refpay_refpay`). Medusa's own subscriber asks the provider for an action
 * and only acts on payments; this one runs the same logic as the plugin's webhook route, which also handles
 * cancellations.
 */
export default async function refpayWebhookReceived({ event, container }: SubscriberArgs<WebhookReceived>) {
  const provider = providerIdFromRoute(event.data.provider)
  if (!isRefpayProviderId(provider)) return
  const { data, rawData, headers } = event.data.payload
  const rawBody = toBuffer(rawData)
  await handleRefpayWebhook(container, {
    body: rawBody ?? data,
    rawBody,
    headers: headers ?? {},
    route: "medusa",
    signedBody: data,
    providerId: provider,
  })
}

function toBuffer(raw: WebhookReceived["payload"]["rawData"]): Buffer | undefined {
  if (!raw) return undefined
  if (Buffer.isBuffer(raw)) return raw
  if (typeof raw === "string") return Buffer.from(raw)
  if (raw.type === "Buffer" && Array.isArray(raw.data)) return Buffer.from(raw.data)
  return undefined
}

export const config: SubscriberConfig = { event: MEDUSA_WEBHOOK_EVENT }

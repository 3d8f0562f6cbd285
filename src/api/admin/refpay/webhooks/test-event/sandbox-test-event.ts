import { randomBytes, randomUUID } from "node:crypto"
import { request } from "undici"
import { createRefpayClient, type RefpayClient, type RefpayClientConfig } from "../../../../../lib/refpay"
import { TEST_EVENT_ORDER_PREFIX } from "../../../../../modules/refpay"
import type { ResolvedRefpayOptions } from "../../../../../config"
import { testClientConfig, diagnose, type ConnectionText } from "../../connection-test/connection-test"
import { testEventText, type TestEventText } from "./test-event-texts"

/**
 * "Send a test event", sandbox environment only: creates a throwaway 1,00 € payment on the REFPAY sandbox
 * simulator (its order_id starts with TEST_EVENT_ORDER_PREFIX), which then delivers its PENDING_TRANSACTIONS webhook
 * to the URL it was started with. The admin page watches the deliveries list for it. Before creating anything the
 * sandbox's own controls (`/__sandbox`, docs/platform-contract.md) say where it delivers; a sandbox without
 * controls (a platform's homologation environment) or without a webhook URL gets a plain answer instead.
 */

export const TEST_EVENT_AMOUNT_CENTS = 100

export type TestEventResult =
  | {
      sent: true
      payment_id: string
      order_id: string
      /** Where the sandbox delivers its webhooks. */
      sandbox_webhook_url: string
      /** Whether that is this shop's /hooks/refpay (loopback names count as one). */
      delivers_to_this_shop: boolean
      message: TestEventText
    }
  | {
      sent: false
      reason: "not_sandbox" | "no_sandbox_controls" | "no_webhook_url" | "creation_failed"
      message: TestEventText
      /** Why the test payment could not be created, as the connection test says it (the admin translates it). */
      problem?: ConnectionText
    }

export interface SandboxAttempt {
  at: string
  /** HTTP status the shop answered, when it answered. */
  status: number | null
  error: string | null
}

export interface TestEventProgress {
  /** What the sandbox reports of its attempts to deliver the payment's events. */
  sandbox_attempts: SandboxAttempt[]
  /** One sentence on what the attempts show (refused, could not connect, delivered). */
  sandbox_summary: TestEventText | null
}

const CONTROL_TIMEOUT_MS = 3_000

export function sandboxControlsUrl(settings: Pick<ResolvedRefpayOptions, "paymentsUrl">): string {
  return `${new URL(settings.paymentsUrl).origin}/__sandbox`
}

async function control(settings: Pick<ResolvedRefpayOptions, "paymentsUrl">, path: string): Promise<unknown> {
  const response = await request(`${sandboxControlsUrl(settings)}${path}`, {
    method: "GET",
    headersTimeout: CONTROL_TIMEOUT_MS,
    bodyTimeout: CONTROL_TIMEOUT_MS,
  })
  const text = await response.body.text()
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`)
  return JSON.parse(text)
}

export async function sendSandboxTestEvent(
  settings: Readonly<ResolvedRefpayOptions>,
  shopWebhookUrl: string,
  deps: { createClient?: (config: RefpayClientConfig) => RefpayClient } = {}
): Promise<TestEventResult> {
  if (settings.environment !== "sandbox") {
    return { sent: false, reason: "not_sandbox", message: testEventText("not_sandbox") }
  }
  let config: { url: string | null }
  try {
    config = (await control(settings, "/webhooks/config")) as { url: string | null }
  } catch {
    return {
      sent: false,
      reason: "no_sandbox_controls",
      message: testEventText("no_sandbox_controls", {
        origin: new URL(settings.paymentsUrl).origin,
        controls_url: sandboxControlsUrl(settings),
      }),
    }
  }
  if (!config?.url) {
    return {
      sent: false,
      reason: "no_webhook_url",
      message: testEventText("no_webhook_url", { shop_webhook_url: shopWebhookUrl }),
    }
  }

  const orderId = `${TEST_EVENT_ORDER_PREFIX}${randomBytes(8).toString("hex")}`
  const client = (deps.createClient ?? createRefpayClient)(testClientConfig(settings))
  try {
    const created = await client.createPayment({
      paymentId: randomUUID(),
      orderId,
      amountCents: TEST_EVENT_AMOUNT_CENTS,
      idempotencyKey: randomUUID(),
    })
    const here = sameEndpoint(config.url, shopWebhookUrl)
    return {
      sent: true,
      payment_id: created.paymentId,
      order_id: orderId,
      sandbox_webhook_url: config.url,
      delivers_to_this_shop: here,
      message: here
        ? testEventText("sent_to_this_shop")
        : testEventText("sent_elsewhere", { sandbox_webhook_url: config.url, shop_webhook_url: shopWebhookUrl }),
    }
  } catch (error) {
    const diagnosis = diagnose(error, {
      environment: settings.environment,
      tokenInterface: settings.tokenInterface,
      origin: new URL(settings.paymentsUrl).origin,
      connectTimeoutMs: settings.connectTimeoutMs,
      requestTimeoutMs: settings.requestTimeoutMs,
    })
    return {
      sent: false,
      reason: "creation_failed",
      message: testEventText("creation_failed"),
      problem: diagnosis.summary,
    }
  } finally {
    await client.close().catch(() => undefined)
  }
}

/** The sandbox's delivery attempts of a test payment's events, for the page to explain a delivery that did not arrive. */
export async function testEventProgress(
  settings: Readonly<ResolvedRefpayOptions>,
  paymentId: string
): Promise<TestEventProgress> {
  if (settings.environment !== "sandbox") return { sandbox_attempts: [], sandbox_summary: null }
  let view: { events?: { attempts?: unknown }[] } | undefined
  try {
    view = (await control(settings, `/webhooks?payment_id=${encodeURIComponent(paymentId)}`)) as typeof view
  } catch {
    return { sandbox_attempts: [], sandbox_summary: testEventText("controls_silent") }
  }
  const attempts: SandboxAttempt[] = (view?.events ?? [])
    .flatMap((event) =>
      Array.isArray(event?.attempts) ? (event.attempts as { at?: unknown; status?: unknown; error?: unknown }[]) : []
    )
    .map((attempt) => ({
      at: String(attempt.at ?? ""),
      status: typeof attempt.status === "number" ? attempt.status : null,
      error: typeof attempt.error === "string" ? attempt.error.slice(0, 200) : null,
    }))
    .sort((a, b) => a.at.localeCompare(b.at))
  return { sandbox_attempts: attempts, sandbox_summary: summarizeAttempts(attempts) }
}

export function summarizeAttempts(attempts: SandboxAttempt[]): TestEventText {
  const last = attempts[attempts.length - 1]
  if (!last) return testEventText("not_tried_yet")
  if (last.status !== null && last.status >= 200 && last.status < 300)
    return testEventText("delivered", { status: last.status })
  if (last.status === 401) return testEventText("refused_secret")
  if (last.status !== null) return testEventText("shop_answered", { status: last.status })
  return testEventText("not_delivered", { error: last.error ?? "-" })
}

/** Same scheme, port and path, and the same host or two loopback names of this machine. */
export function sameEndpoint(a: string, b: string): boolean {
  try {
    const x = new URL(a)
    const y = new URL(b)
    const loopback = (h: string) => ["localhost", "127.0.0.1", "[::1]", "::1"].includes(h)
    const sameHost = x.hostname === y.hostname || (loopback(x.hostname) && loopback(y.hostname))
    return (
      x.protocol === y.protocol &&
      sameHost &&
      x.port === y.port &&
      x.pathname.replace(/\/+$/, "") === y.pathname.replace(/\/+$/, "")
    )
  } catch {
    return false
  }
}

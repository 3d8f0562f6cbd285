// The work the cluster suites put on the servers, and what they check after it: checkouts spread over the servers
// by the load balancer, payments made on the platform with their webhooks delivered to every server, and the
// verdict that every paid order is captured exactly once.
import { captureVerdict, type CaptureVerdict } from "./ledger"
import type { PlatformPayment } from "./platform"
import { pendingEvents } from "./redis-probe"
import { waitUntil, type ClusterStack } from "./stack"
import type { PlacedOrder } from "./storefront"

/** Checkouts in flight at once: what two cores carry without the test itself timing out. */
export const CHECKOUT_CONCURRENCY = 8
/** Payments made on the platform at once (the sandbox answers in a millisecond; webhooks then all go out). */
export const PAY_CONCURRENCY = 50

export interface Order {
  cartId: string
  orderId: string
  paymentId: string
  reference: string
  entity: string
  servedBy?: string
}

export interface CheckoutRun {
  placed: PlacedOrder[]
  orders: Order[]
  failed: PlacedOrder[]
  ms: number
}

/** Runs `work` over `items` with at most `limit` at once; results in order. */
export async function eachLimited<T, R>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/**
 * `count` checkouts through the load balancer, `concurrency` at a time; then each order's REFPAY details as the
 * customer's thank-you page reads them.
 */
export async function checkouts(
  stack: ClusterStack,
  count: number,
  concurrency = CHECKOUT_CONCURRENCY,
  onPlaced?: (p: PlacedOrder) => void
): Promise<CheckoutRun> {
  const started = Date.now()
  const placed = await eachLimited(Array.from({ length: count }), concurrency, async () => {
    const result = await stack.storefront.checkout(stack.variantId)
    onPlaced?.(result)
    return result
  })
  const ms = Date.now() - started
  const orders: Order[] = []
  for (const p of placed.filter((p) => p.orderId)) {
    const view = await stack.storefront.refpayView(p.orderId!)
    orders.push({
      cartId: p.cartId,
      orderId: p.orderId!,
      paymentId: view.payment_id,
      reference: view.reference,
      entity: view.entity,
      servedBy: p.servedBy,
    })
  }
  return { placed, orders, failed: placed.filter((p) => !p.orderId), ms }
}

/**
 * `count` orders waiting for payment: first those earlier tests left unpaid (`stack.unpaidOrders`: the orders of the
 * checkouts interrupted by a server kill, once each shows its reference), then new checkouts for the rest. Placing an
 * order costs the cluster about 1.5 CPU-seconds (Medusa's cart, shipping, payment session and completion), paying
 * one a fraction of that: a test that only needs waiting payments to pay takes those already there. `failed` and
 * `placed` are the new checkouts'.
 */
export async function waitingOrders(
  stack: ClusterStack,
  count: number,
  concurrency = CHECKOUT_CONCURRENCY
): Promise<CheckoutRun> {
  const taken = stack.unpaidOrders.splice(0, count)
  const placed = await checkouts(stack, count - taken.length, concurrency)
  return { ...placed, orders: [...taken, ...placed.orders] }
}

/** How many of `items` each value of `key` has, e.g. completions per server. */
export function tally<T>(items: T[], key: (item: T) => string | undefined): Record<string, number> {
  const out: Record<string, number> = {}
  for (const item of items) {
    const k = key(item) ?? "unknown"
    out[k] = (out[k] ?? 0) + 1
  }
  return out
}

/** The customer pays every order's reference (the platform's own control), `PAY_CONCURRENCY` at once. */
export async function payAll(stack: ClusterStack, orders: Order[]): Promise<void> {
  await eachLimited(orders, PAY_CONCURRENCY, (order) => stack.platform.pay(order.paymentId))
}

export interface SettledPayments {
  verdict: CaptureVerdict
  platform: PlatformPayment[]
  /** From the first payment to the last capture Medusa recorded. */
  capturedMs: number
}

/**
 * Waits until every order of `orders` is captured in Medusa (or `timeoutMs` passes), then until the webhooks have
 * settled (the sandbox has nothing pending, the fan-out nothing in flight, and Medusa's webhook route's delayed events
 * have run), and returns the exactly-once verdict over those orders.
 */
export async function settle(
  stack: ClusterStack,
  orders: Order[],
  paidAt: number,
  timeoutMs: number
): Promise<SettledPayments> {
  const ids = orders.map((o) => o.orderId)
  let capturedMs = -1
  await waitUntil(
    async () => {
      const rows = await stack.ledger.orders(ids)
      const done = rows.filter((r) => r.captures > 0).length === ids.length
      if (done) capturedMs = Date.now() - paidAt
      return done
    },
    timeoutMs,
    `all ${ids.length} paid orders captured`,
    async () => {
      const rows = await stack.ledger.orders(ids)
      return `${rows.filter((r) => r.captures > 0).length} captured; uncaptured: ${rows
        .filter((r) => r.captures === 0)
        .slice(0, 10)
        .map((r) => `${r.order_id} ${r.session_status}`)
        .join(", ")}`
    }
  )
  await quiet(stack, 180_000)
  const platform = await stack.platform.payments()
  const mine = new Set(orders.map((o) => o.paymentId))
  const verdict = captureVerdict(
    await stack.ledger.orders(ids),
    platform.filter((p) => mine.has(p.payment_id))
  )
  return { verdict, platform, capturedMs }
}

/**
 * Until every webhook the sandbox sent is settled (delivered, failed or dropped), nothing is in flight at the
 * fan-out, and Medusa's Redis event queue holds no unfinished event: deliveries to Medusa's webhook route are events
 * processed 5 s after they are received (and retried), so this waits for those events themselves rather than a
 * fixed 10 s.
 */
export async function quiet(stack: ClusterStack, timeoutMs: number): Promise<void> {
  const redisPort = stack.demo.cluster.redis.port
  await waitUntil(
    async () => {
      const events = await stack.platform.webhooks()
      if (stack.fanOut.pending() !== 0 || events.some((e) => e.deliveries.some((d) => d.state === "pending")))
        return false
      return (await pendingEvents(redisPort).catch(() => -1)) === 0
    },
    timeoutMs,
    "webhooks settled",
    async () =>
      `fan-out in flight ${stack.fanOut.pending()}; Medusa events pending ${await pendingEvents(redisPort).catch((e: Error) => e.message)}`
  )
}

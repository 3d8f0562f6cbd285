// What a storefront does over HTTP, against the load balancer (or one server): cart, shipping, REFPAY session, place
// order, then the thank-you page's REFPAY details. Like a customer it tries a step again when the server failed
// (a 5xx, a 502 from the load balancer for a server that died under it, a reset connection), and it keeps which
// server answered.
import { randomUUID } from "node:crypto"
import { request } from "undici"

export const REFPAY_PROVIDER_ID = "pp_refpay_refpay"

const ADDRESS = {
  first_name: "Maria",
  last_name: "Silva",
  address_1: "Rua Augusta 100",
  city: "Lisboa",
  province: "Lisboa",
  postal_code: "1100-053",
  country_code: "pt",
  phone: "+351912345678",
}

export class HttpError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string
  ) {
    super(`${method} ${path}: ${status} ${body.slice(0, 300)}`)
  }
}

export interface StoreRefpayView {
  order_id: string
  payment_id: string
  entity: string
  reference: string
  amount_cents: number
  status: string
  platform_status: string
}

export interface PlacedOrder {
  /** Empty when even the cart could not be created. */
  cartId: string
  orderId?: string
  /** The completion's answer when it was not an order. */
  error?: string
  /** The server that answered the completion that returned the order. */
  servedBy?: string
  /** Completion attempts (more than one when a server died under it). */
  attempts: number
  completeMs: number
}

interface Answer<T> {
  data: T
  servedBy?: string
}

/**
 * Errors of the server, not of the request, that a customer meets by trying again: a 5xx, a dead connection, and
 * Medusa's 409 "conflicted with another request" (the cart's lock is still held, by a request in flight or by a
 * server that died holding it, until the lock expires).
 */
function retriable(error: unknown): boolean {
  if (error instanceof HttpError) return error.status >= 500 || error.status === 409
  return true // connection reset, refused, timeout
}

export class Storefront {
  constructor(
    readonly baseUrl: string,
    readonly publishableKey: string,
    readonly regionId: string,
    private readonly options: { retries?: number; retryDelayMs?: number } = {}
  ) {}

  async call<T = any>(method: "GET" | "POST", path: string, body?: unknown): Promise<Answer<T>> {
    const answer = await request(`${this.baseUrl}${path}`, {
      method,
      headers: {
        "x-publishable-api-key": this.publishableKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    })
    const text = await answer.body.text()
    if (answer.statusCode >= 300) throw new HttpError(method, path, answer.statusCode, text)
    const servedBy = answer.headers["x-served-by"]
    return { data: JSON.parse(text) as T, servedBy: typeof servedBy === "string" ? servedBy : undefined }
  }

  /** One step, tried again (up to `retries` times, by default the storefront's) when the server failed. */
  async step<T = any>(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    retries = this.options.retries ?? 0
  ): Promise<Answer<T> & { attempts: number }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return { ...(await this.call<T>(method, path, body)), attempts: attempt }
      } catch (error) {
        if (attempt > retries || !retriable(error)) throw error
        await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs ?? 1_000))
      }
    }
  }

  async firstVariantId(): Promise<string> {
    const { data } = await this.call<{ products: { variants: { id: string }[] }[] }>(
      "GET",
      `/store/products?region_id=${this.regionId}&limit=1`
    )
    const variant = data.products[0]?.variants[0]?.id
    if (!variant) throw new Error("the demo shop has no product")
    return variant
  }

  /** A cart with an item, addresses, shipping and a REFPAY session: ready for "Place order". */
  async prepareCart(variantId: string, onCart?: (cartId: string) => void): Promise<string> {
    const email = `cliente-${randomUUID()}@example.com` // one customer per checkout, as in a real shop
    const { data } = await this.step<{ cart: { id: string } }>("POST", "/store/carts", {
      region_id: this.regionId,
      email,
      items: [{ variant_id: variantId, quantity: 1 }],
      shipping_address: ADDRESS,
      billing_address: ADDRESS,
    })
    const cartId = data.cart.id
    onCart?.(cartId)
    const { data: options } = await this.step<{ shipping_options: { id: string }[] }>(
      "GET",
      `/store/shipping-options?cart_id=${cartId}`
    )
    await this.step("POST", `/store/carts/${cartId}/shipping-methods`, { option_id: options.shipping_options[0]!.id })
    const { data: collection } = await this.step<{ payment_collection: { id: string } }>(
      "POST",
      "/store/payment-collections",
      { cart_id: cartId }
    )
    await this.step("POST", `/store/payment-collections/${collection.payment_collection.id}/payment-sessions`, {
      provider_id: REFPAY_PROVIDER_ID,
    })
    return cartId
  }

  /**
   * "Place order": the completion, tried again when the server failed, as a customer does; `retries: 0` is the
   * customer who gives up after an error page.
   */
  async complete(cartId: string, retries = this.options.retries ?? 0): Promise<PlacedOrder> {
    const started = Date.now()
    try {
      const { data, servedBy, attempts } = await this.step<{
        type: string
        order?: { id: string }
        error?: { message: string }
      }>("POST", `/store/carts/${cartId}/complete`, {}, retries)
      const completeMs = Date.now() - started
      if (data.type === "order" && data.order) return { cartId, orderId: data.order.id, servedBy, attempts, completeMs }
      return { cartId, error: data.error?.message ?? JSON.stringify(data), servedBy, attempts, completeMs }
    } catch (error) {
      return { cartId, error: (error as Error).message, attempts: retries + 1, completeMs: Date.now() - started }
    }
  }

  /** A whole checkout; a step that failed for good is reported in `error`, like a completion that did. */
  async checkout(variantId: string): Promise<PlacedOrder> {
    const started = Date.now()
    let cartId = ""
    try {
      cartId = await this.prepareCart(variantId, (id) => (cartId = id))
    } catch (error) {
      return {
        cartId,
        error: `before "Place order": ${(error as Error).message}`,
        attempts: 0,
        completeMs: Date.now() - started,
      }
    }
    return this.complete(cartId)
  }

  /** The thank-you page's REFPAY details (entity, reference, amount), as the customer sees them. */
  async refpayView(orderId: string): Promise<StoreRefpayView> {
    const { data } = await this.step<{ refpay: StoreRefpayView }>("GET", `/store/refpay/orders/${orderId}`)
    return data.refpay
  }
}

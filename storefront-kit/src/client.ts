import type {
  RefpayOrderPayment,
  RefpayPaymentCollection,
  RefpayPaymentCollectionAnswer,
  RefpayPaymentRequests,
  RefpayResult,
} from "./types.js"

/** The part of `@medusajs/js-sdk`'s `Medusa` the kit uses: `sdk.client.fetch` (it adds the publishable key). */
export interface RefpaySdkLike {
  client: { fetch<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T> }
}

/**
 * One call to a REFPAY store route, answered as a result: what a Next.js server action can be (the starters keep
 * their Medusa URL on the server). It is only ever asked for `/store/refpay/...` paths; check that on the server.
 */
export type RefpayStoreCall = (method: "GET" | "POST", path: string, body?: object) => Promise<RefpayResult<unknown>>

export type RefpayClientOptions =
  | { sdk: RefpaySdkLike }
  | { call: RefpayStoreCall }
  | {
      /** The Medusa server, e.g. "https://shop.example.com". */
      baseUrl: string
      /** The storefront's publishable API key (Medusa requires it on /store routes). */
      publishableKey: string
      /** Another fetch (tests, a runtime without a global one). */
      fetch?: typeof fetch
    }

/** The plugin's store routes, each answered as a result (never thrown), so a page can keep polling after an error. */
export interface RefpayClient {
  orderPayment(orderId: string): Promise<RefpayResult<RefpayOrderPayment>>
  paymentRequests(orderId: string): Promise<RefpayResult<RefpayPaymentRequests>>
  requestPayment(orderId: string, paymentCollectionId: string): Promise<RefpayResult<RefpayPaymentCollection>>
  paymentCollection(paymentCollectionId: string): Promise<RefpayResult<RefpayPaymentCollectionAnswer>>
  requestPaymentCollection(paymentCollectionId: string): Promise<RefpayResult<RefpayPaymentCollectionAnswer>>
}

type Call = <T>(method: "GET" | "POST", path: string, body?: object) => Promise<RefpayResult<T>>

/** A caller's own call (a server action); one that throws (a restarted server) reads as a failure. */
function ownCall(call: RefpayStoreCall): Call {
  return async <T>(method: "GET" | "POST", path: string, body?: object) => {
    try {
      return (await call(method, path, body)) as RefpayResult<T>
    } catch (error) {
      return failure(0, (error as Error)?.message)
    }
  }
}

/** Through the shop's JS SDK: its base URL, publishable key and auth. Its FetchError carries `status`. */
function sdkCall(sdk: RefpaySdkLike): Call {
  return async (method, path, body) => {
    try {
      return { ok: true, data: await sdk.client.fetch(path, { method, body }) }
    } catch (error) {
      return failure(Number((error as { status?: unknown })?.status) || 0, (error as Error)?.message)
    }
  }
}

/** Plain fetch with the publishable key header, for a storefront without the SDK. */
function fetchCall(baseUrl: string, publishableKey: string, fetchImpl: typeof fetch): Call {
  return async (method, path, body) => {
    try {
      const response = await fetchImpl(`${baseUrl.replace(/\/+$/, "")}${path}`, {
        method,
        headers: { "x-publishable-api-key": publishableKey, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
      const answer = await response.json().catch(() => ({}))
      if (response.ok) return { ok: true, data: answer }
      return failure(response.status, answer?.message)
    } catch (error) {
      // The network, a restarted server: a failure like any other, so polling carries on.
      return failure(0, (error as Error)?.message)
    }
  }
}

/** A route's error as a result; exported for a server action that answers the same shape. */
export function refpayFailure(status: number, message: unknown) {
  return failure(status, message)
}

function failure(status: number, message: unknown) {
  return {
    ok: false as const,
    notFound: status === 404,
    status,
    message: typeof message === "string" && message ? message : `HTTP ${status || "error"}`,
  }
}

export function createRefpayClient(options: RefpayClientOptions): RefpayClient {
  const call =
    "sdk" in options
      ? sdkCall(options.sdk)
      : "call" in options
        ? ownCall(options.call)
        : fetchCall(options.baseUrl, options.publishableKey, options.fetch ?? ((...args) => fetch(...args)))
  const order = (id: string) => `/store/refpay/orders/${encodeURIComponent(id)}`
  const collection = (id: string) => `/store/refpay/payment-collections/${encodeURIComponent(id)}`
  return {
    orderPayment: (orderId) => call("GET", order(orderId)),
    paymentRequests: (orderId) => call("GET", `${order(orderId)}/payment-requests`),
    requestPayment: (orderId, paymentCollectionId) =>
      call("POST", `${order(orderId)}/payment-requests`, { payment_collection_id: paymentCollectionId }),
    paymentCollection: (id) => call("GET", collection(id)),
    requestPaymentCollection: (id) => call("POST", collection(id), {}),
  }
}

import { useMemo } from "react"
import { createRefpayClient, type RefpayClient, type RefpayStoreCall } from "./client.js"

/**
 * How a component reaches the shop: a `client` made with `createRefpayClient` (in a client component), or `call`, a
 * function such as a Next.js server action, which a server component can pass where it cannot pass an object.
 */
export type RefpayConnection = { client: RefpayClient; call?: never } | { call: RefpayStoreCall; client?: never }

export function useRefpayClient(connection: { client?: RefpayClient; call?: RefpayStoreCall }): RefpayClient {
  const { client, call } = connection
  return useMemo(() => {
    if (client) return client
    if (call) return createRefpayClient({ call })
    throw new Error("medusa-payment-refpay/storefront: pass `client` (createRefpayClient) or `call`")
  }, [client, call])
}

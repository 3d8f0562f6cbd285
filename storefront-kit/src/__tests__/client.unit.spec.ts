// The storefront client's three ways to the shop (Medusa's JS SDK, plain fetch with the publishable key, a caller's
// own function such as a Next.js server action) answer the same results for the same HTTP answers. The answers come
// from a loopback server that replies as Medusa's store routes do (a body, or `{ type, message }` with the status);
// the routes themselves are proved in integration-tests/http/refpay-expiry-emails.spec.ts and the browser suites.
import http from "node:http"
import type { AddressInfo } from "node:net"
import Medusa from "@medusajs/js-sdk"
import { createRefpayClient, type RefpayClient, type RefpayStoreCall } from "../client"

const KEY = "pk_storefront_test"
const seen: { method: string; url: string; key: string | undefined; body: string }[] = []
let server: http.Server
let baseUrl: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, key: req.headers["x-publishable-api-key"] as string, body })
      const send = (status: number, answer: object) => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(answer))
      }
      if (req.url === "/store/refpay/orders/order_1") return send(200, { refpay: { reference: "000123450" } })
      if (req.url === "/store/refpay/payment-collections/pay_col_1" && req.method === "POST")
        return send(400, { type: "not_allowed", message: "A loja não emite referências REFPAY a pedido." })
      send(404, { type: "not_found", message: "Order order_x was not found" })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise((resolve) => server.close(resolve)))

/** A caller's own function, shaped as the starters' server action (`src/lib/data/refpay.ts` in the patches). */
const serverAction: RefpayStoreCall = async (method, path, body) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { "x-publishable-api-key": KEY, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  })
  const answer = await response.json()
  if (response.ok) return { ok: true, data: answer }
  return { ok: false, notFound: response.status === 404, status: response.status, message: answer.message }
}

const clients: [string, () => RefpayClient][] = [
  ["the JS SDK", () => createRefpayClient({ sdk: new Medusa({ baseUrl, publishableKey: KEY }) })],
  ["plain fetch", () => createRefpayClient({ baseUrl: `${baseUrl}/`, publishableKey: KEY })],
  ["a server action", () => createRefpayClient({ call: serverAction })],
]

describe.each(clients)("createRefpayClient through %s", (_name, make) => {
  beforeEach(() => void (seen.length = 0))

  it("answers a store route's body as data, with the publishable key sent", async () => {
    expect(await make().orderPayment("order_1")).toEqual({ ok: true, data: { refpay: { reference: "000123450" } } })
    expect(seen.map((s) => [s.method, s.url, s.key])).toEqual([["GET", "/store/refpay/orders/order_1", KEY]])
  })

  it("answers a 404 as not found and a refusal with the shop's sentence, never throwing", async () => {
    expect(await make().orderPayment("order_x")).toMatchObject({ ok: false, notFound: true, status: 404 })
    expect(await make().requestPaymentCollection("pay_col_1")).toEqual({
      ok: false,
      notFound: false,
      status: 400,
      message: "A loja não emite referências REFPAY a pedido.",
    })
  })
})

it("answers a shop that cannot be reached as a failure, so a page keeps polling", async () => {
  const unreachable = createRefpayClient({ baseUrl: "http://127.0.0.1:9", publishableKey: KEY })
  expect(await unreachable.paymentRequests("order_1")).toMatchObject({ ok: false, notFound: false, status: 0 })
  const throwing = createRefpayClient({
    call: async () => {
      throw new Error("server restarted")
    },
  })
  expect(await throwing.orderPayment("order_1")).toEqual({
    ok: false,
    notFound: false,
    status: 0,
    message: "server restarted",
  })
})

import { request } from "undici"
import { pollRefpayPayments } from "../../src/workflows/refpay-sync/poll"
import { placeRefpayOrder } from "../fixtures/checkout"
import { portoAccount } from "../fixtures/porto-account"
import { refpayOrders, session } from "../fixtures/refpay-orders"
import { refpayIntegrationSuite, TEST_WEBHOOK_SECRET } from "../harness"

jest.setTimeout(180 * 1000)

const MINUTE = 60_000
const PORTO_SECRET = "fake-porto-webhook-secret-for-tests"
const PORTO = { clientId: "porto-client-id", clientSecret: "porto-client-secret", channel: "porto-channel", scope: "payments", entity: "54321" }

/**
 * A shop with two REFPAY seller accounts (pp_refpay_lisboa, pp_refpay_porto), each with its own credentials,
 * platform and webhook secret: every payment is created, read and confirmed through its own registration.
 * Lisboa uses the unprefixed REFPAY_* variables (the harness's sandbox); Porto its own REFPAY_PORTO_* ones and a
 * second sandbox that knows only Porto's credentials.
 */
const porto = portoAccount(PORTO, PORTO_SECRET)

refpayIntegrationSuite(
  "REFPAY with two seller accounts: each registration its own client, secret, webhooks and poll",
  (ctx) => {
    const { api, control, store } = ctx
    const orders = refpayOrders(ctx)
    const portoControl = async (method: "GET" | "POST", path: string, body?: unknown) => {
      const response = await request(`${porto().url}/__sandbox${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return response.body.json() as Promise<any>
    }
    const placeWith = async (account: "lisboa" | "porto") => {
      const { completion } = await placeRefpayOrder(api, store(), { providerId: `pp_refpay_${account}` })
      const order = await orders.adminOrder(completion.order.id)
      return { orderId: order.id as string, session: session(order) }
    }
    const post = async (path: string, body: unknown, secret: string) => {
      const response = await request(`${orders.shopUrl()}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-refpay-webhook-secret": secret },
        body: JSON.stringify(body),
      })
      await response.body.text()
      return response.statusCode
    }

    beforeEach(async () => {
      await porto().reset()
      await control("POST", "/webhooks/config", { url: `${orders.shopUrl()}/hooks/refpay/lisboa`, secret: TEST_WEBHOOK_SECRET })
      await portoControl("POST", "/webhooks/config", { url: `${orders.shopUrl()}/hooks/refpay/porto`, secret: PORTO_SECRET })
    })

    it("creates each reference on its own account's platform and captures each through its own webhooks", async () => {
      const lisboa = await placeWith("lisboa")
      const portoOrder = await placeWith("porto")
      expect(lisboa.session.provider_id).toBe("pp_refpay_lisboa")
      expect(portoOrder.session.provider_id).toBe("pp_refpay_porto")
      expect(portoOrder.session.data.refpay.entity).toBe("54321")
      expect((await control("GET", "/payments")).payments.map((p: any) => p.payment_id)).toEqual([lisboa.session.data.refpay.payment_id])
      expect((await portoControl("GET", "/payments")).payments.map((p: any) => p.payment_id)).toEqual([portoOrder.session.data.refpay.payment_id])

      await control("POST", `/payments/${lisboa.session.data.refpay.payment_id}/pay`)
      await portoControl("POST", `/payments/${portoOrder.session.data.refpay.payment_id}/pay`)
      await orders.waitForOrder(lisboa.orderId, (o) => o.payment_status === "captured")
      await orders.waitForOrder(portoOrder.orderId, (o) => o.payment_status === "captured")
    })

    it("captures both accounts' payments through the poll job when no webhook arrives", async () => {
      const lisboa = await placeWith("lisboa")
      const portoOrder = await placeWith("porto")
      await control("POST", "/webhooks/config", { url: null })
      await portoControl("POST", "/webhooks/config", { url: null })
      await control("POST", `/payments/${lisboa.session.data.refpay.payment_id}/pay`)
      await portoControl("POST", `/payments/${portoOrder.session.data.refpay.payment_id}/pay`)

      await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + 11 * MINUTE))
      expect((await orders.adminOrder(lisboa.orderId)).payment_status).toBe("captured")
      expect((await orders.adminOrder(portoOrder.orderId)).payment_status).toBe("captured")
    })

    it("refuses a webhook with one account's secret at the other's door, and an unnamed door when there are several", async () => {
      const portoOrder = await placeWith("porto")
      await portoControl("POST", `/payments/${portoOrder.session.data.refpay.payment_id}/pay`, {})
      const event = {
        event_id: "evt-crossed-secret",
        event_type: "APPROVED_TRANSACTIONS",
        payment_id: portoOrder.session.data.refpay.payment_id,
        order_id: portoOrder.session.data.refpay.order_id,
      }
      expect(await post("/hooks/refpay/lisboa", event, PORTO_SECRET)).toBe(401)
      expect(await post("/hooks/refpay", event, PORTO_SECRET)).toBe(400)
      // Lisboa's door with Lisboa's secret does not process Porto's payment either.
      expect(await post("/hooks/refpay/lisboa", event, TEST_WEBHOOK_SECRET)).toBe(200)
      expect(await post("/hooks/refpay/porto", { ...event, event_id: "evt-porto-own" }, PORTO_SECRET)).toBe(200)
      await orders.waitForOrder(portoOrder.orderId, (o) => o.payment_status === "captured")
    })
  },
  { env: { REFPAY_TEST_ACCOUNTS: "lisboa,porto", REFPAY_POLL_INTERVAL_MINUTES: "10" } }
)

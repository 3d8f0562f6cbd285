// The shop owner's side of a browser suite: the admin's own API with a logged-in user's token (for set-up steps a
// person would do elsewhere, such as cancelling an order) and the admin's login form in chromium.
import type { Page } from "playwright-core"
import type { PaymentRequestsView } from "../src/queries/order-payment-requests"
import { PORTO_ADDRESS, type DemoSession } from "./demo-session"

export class AdminSession {
  private token: string | undefined

  constructor(private readonly demo: DemoSession) {}

  private async authorization(): Promise<string> {
    if (!this.token) {
      const response = await fetch(`${this.demo.info.shop_url}/auth/user/emailpass`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: this.demo.info.admin_email, password: this.demo.info.admin_password }),
      })
      if (!response.ok) throw new Error(`admin login: ${response.status} ${await response.text()}`)
      this.token = ((await response.json()) as { token: string }).token
    }
    return `Bearer ${this.token}`
  }

  /** An admin API call as the demo's admin user. */
  async api<T = any>(method: "GET" | "POST", urlPath: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.demo.info.shop_url}${urlPath}`, {
      method,
      headers: { authorization: await this.authorization(), "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${urlPath}: ${response.status} ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }

  /**
   * Adds items to a placed order as the admin's "Edit order" does (an order edit created, changed, requested and
   * confirmed): Medusa opens a payment collection for the difference when the order was paid.
   */
  async addItemsByOrderEdit(orderId: string, variantId: string, quantity: number): Promise<void> {
    await this.api("POST", "/admin/order-edits", { order_id: orderId })
    await this.api("POST", `/admin/order-edits/${orderId}/items`, { items: [{ variant_id: variantId, quantity }] })
    await this.api("POST", `/admin/order-edits/${orderId}/request`, {})
    await this.api("POST", `/admin/order-edits/${orderId}/confirm`, {})
  }

  /**
   * An order the shop owner creates in the admin (a phone sale): a draft order with one item and the shop's shipping,
   * converted. It has no payment yet, REFPAY or other.
   */
  async createOrderInAdmin(variantId: string): Promise<string> {
    const { sales_channels } = await this.api("GET", "/admin/sales-channels?fields=id,name&limit=50")
    const { shipping_options } = await this.api("GET", "/admin/shipping-options?fields=id&limit=1")
    const { draft_order } = await this.api("POST", "/admin/draft-orders", {
      region_id: this.demo.info.region_id,
      // The demo's online shop (SHOP_NAMES.salesChannel), where the products and their stock are.
      sales_channel_id: sales_channels.find((channel: { name: string }) => channel.name === "Loja online").id,
      email: "joao.pereira@example.com",
      items: [{ variant_id: variantId, quantity: 1 }],
      shipping_address: PORTO_ADDRESS,
      billing_address: PORTO_ADDRESS,
      shipping_methods: [{ name: "Envio", shipping_option_id: shipping_options[0].id, amount: 4.99 }],
    })
    const { order } = await this.api("POST", `/admin/draft-orders/${draft_order.id}/convert-to-order`, {})
    return order.id
  }

  /** What `GET /admin/refpay/orders/:id/payment-requests` answers: the order's collections and what it owes. */
  paymentRequests(orderId: string): Promise<PaymentRequestsView> {
    return this.api("GET", `/admin/refpay/orders/${orderId}/payment-requests`)
  }

  /** Polls `check` until it holds (effects that arrive through webhooks). */
  async until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (await check()) return
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    throw new Error(`${what}: not within ${timeoutMs} ms`)
  }

  /** Logs in through the admin's form, as a person does. */
  async logIn(page: Page): Promise<void> {
    await page.goto(this.demo.info.admin_url)
    await page.locator('input[name="email"]').fill(this.demo.info.admin_email)
    await page.locator('input[name="password"]').fill(this.demo.info.admin_password)
    await page.locator('button[type="submit"]').click()
    await page.waitForURL(/\/app\/orders/, { timeout: 60_000 })
  }

  /** Opens Settings → REFPAY and waits for it to load. */
  async openRefpayPage(page: Page): Promise<void> {
    await page.goto(`${this.demo.info.admin_url}/settings/refpay`)
    await page.getByTestId("refpay-settings-page").waitFor({ timeout: 60_000 })
  }
}

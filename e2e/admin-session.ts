// The shop owner's side of a browser suite: the admin's own API with a logged-in user's token (for set-up steps a
// person would do elsewhere, such as cancelling an order), and the admin itself in chromium, clicked as a person does
// where the step is the one under test (the login form, Medusa's order edit).
import { isDeepStrictEqual } from "node:util"
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

  /**
   * Adds `quantity` of the variant with `sku` to a placed order the way a shop owner does in Medusa's admin (logged in
   * on `page`): the order's Summary menu → "Edit order", "Add items", the variant ticked in the picker, "Save",
   * "Confirm Edit" → "Continue", then "Force confirm" on the order page's "Order edit requested" panel (the admin only
   * requests an edit; without the customer's confirmation the shop owner forces it, and only then does Medusa emit
   * order-edit.confirmed, to which the plugin answers). The variant is found by its SKU, as the picker lists it: a
   * person never sees an id. Medusa adds one of each ticked variant; another quantity is typed on the added line.
   */
  async addItemsInAdminUi(page: Page, orderId: string, sku: string, quantity = 1): Promise<void> {
    const timeout = 60_000
    await page.goto(`${this.demo.info.admin_url}/orders/${orderId}`)
    // The Summary section's header holds its heading and its action menu (the "…" button), nothing else.
    const summaryHeader = page.getByRole("heading", { name: "Summary", exact: true }).locator("xpath=..")
    await summaryHeader.getByRole("button").click({ timeout })
    // The focus modal creates the order edit itself once it has loaded the order: items added before that answer
    // fail, so the picker is opened only after Medusa's POST /admin/order-edits has come back.
    const editCreated = page.waitForResponse(
      (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/admin/order-edits",
      { timeout }
    )
    await page.getByRole("menuitem", { name: "Edit order", exact: true }).click({ timeout })
    await page.getByRole("heading", { name: "Edit Order", exact: true }).waitFor({ timeout })
    if (!(await editCreated).ok()) throw new Error(`the admin could not open an edit of order ${orderId}`)

    await page.getByRole("button", { name: "Add items", exact: true }).click({ timeout })
    await page.getByRole("searchbox", { name: "Search" }).fill(sku, { timeout })
    const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: sku, exact: true }) })
    await row.getByRole("checkbox").check({ timeout })
    await page.getByRole("button", { name: "Save", exact: true }).click({ timeout })
    // The picker closes once the item is on the edit, which lists it marked "New" (with its SKU in brackets).
    const added = page
      .locator("div")
      .filter({ hasText: `(${sku})` })
      .filter({ has: page.getByText("New", { exact: true }) })
      .filter({ has: page.getByRole("spinbutton") })
      .last()
    await added.waitFor({ timeout })
    if (quantity !== 1) {
      // The quantity is saved when the field loses focus.
      const saved = page.waitForResponse(
        (response) => response.request().method() === "POST" && response.url().includes(`/order-edits/${orderId}/`),
        { timeout }
      )
      await added.getByRole("spinbutton").fill(String(quantity))
      await added.getByRole("spinbutton").blur()
      if (!(await saved).ok()) throw new Error(`the admin could not set the quantity of ${sku} to ${quantity}`)
    }

    await page.getByRole("button", { name: "Confirm Edit", exact: true }).click({ timeout })
    // Medusa's own "Are you sure?" prompt (an alert dialog, not a native one).
    await page.getByRole("alertdialog").getByRole("button", { name: "Continue", exact: true }).click({ timeout })
    // Back on the order (the dashboard may keep the item search's query, `?rit_q=...`, in the address).
    await page.waitForURL(new RegExp(`/app/orders/${orderId}(\\?.*)?$`), { timeout })
    const panel = page.getByRole("heading", { name: "Order edit requested", exact: true })
    await panel.waitFor({ timeout })
    await page.getByRole("button", { name: "Force confirm", exact: true }).click({ timeout })
    await page.getByText("Order edit confirmed", { exact: true }).waitFor({ timeout })
    await panel.waitFor({ state: "detached", timeout })
  }

  /**
   * What the REFPAY page's numbers section draws, read from the figures' and the chart's data attributes once the
   * section has loaded: to compare with what the routes answer.
   */
  async numbersOnPage(page: Page): Promise<{
    figures: Record<string, { count: number; amount_cents: number }>
    perDay: { day: string; issued: number; paid: number }[]
    timeToPay: { days: string; count: number }[]
  }> {
    const section = page.getByTestId("refpay-numbers")
    // A day with nothing has bars of no height: present, not visible.
    await section.getByTestId("refpay-numbers-day").first().waitFor({ state: "attached", timeout: 30_000 })
    await section.getByTestId("refpay-numbers-reconciliation").waitFor({ timeout: 30_000 })
    const figures = await section.locator("[data-count][data-amount-cents]").evaluateAll((nodes) =>
      nodes.map((node) => {
        const data = (node as HTMLElement).dataset
        return [
          data.testid!.replace("refpay-numbers-", ""),
          { count: Number(data.count), amount_cents: Number(data.amountCents) },
        ]
      })
    )
    const perDay = await section.getByTestId("refpay-numbers-day").evaluateAll((nodes) =>
      nodes.map((node) => {
        const data = (node as SVGElement).dataset
        return { day: data.day!, issued: Number(data.issued), paid: Number(data.paid) }
      })
    )
    const timeToPay = await section.locator("[data-days]").evaluateAll((nodes) =>
      nodes.map((node) => ({
        days: (node as HTMLElement).dataset.days!,
        count: Number((node as HTMLElement).dataset.count),
      }))
    )
    return { figures: Object.fromEntries(figures), perDay, timeToPay }
  }

  /**
   * The numbers section as drawn, with the routes' answers from just before and just after the page loaded it. An
   * earlier test's webhooks and poll runs can still be landing (a reference issued or expired moves the counts):
   * until the routes answer the same on both sides of the page's load, the page is opened again (five times at most).
   */
  async numbersAtRest(page: Page) {
    const routes = async () => ({
      conversion: (await this.api("GET", "/admin/refpay/numbers/conversion")).conversion,
      recovered: (await this.api("GET", "/admin/refpay/numbers/recovered")).recovered,
    })
    for (let load = 1; ; load++) {
      const before = await routes()
      await this.openRefpayPage(page)
      const shown = await this.numbersOnPage(page)
      const after = await routes()
      if (isDeepStrictEqual(before, after) || load === 5) return { shown, ...after }
    }
  }

  /** Opens Settings → REFPAY and waits for it to load. */
  async openRefpayPage(page: Page): Promise<void> {
    await page.goto(`${this.demo.info.admin_url}/settings/refpay`)
    await page.getByTestId("refpay-settings-page").waitFor({ timeout: 60_000 })
  }
}

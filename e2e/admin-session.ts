// The shop owner's side of a browser suite: the admin's own API with a logged-in user's token (for set-up steps a
// person would do elsewhere, such as cancelling an order) and the admin's login form in chromium.
import type { Page } from "playwright-core"
import type { DemoSession } from "./demo-session"

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

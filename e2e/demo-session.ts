// A browser suite's view of its worker's demo (started by shared-demo.js with the same orchestration as `npm run demo`,
// ephemeral: throwaway database, any free loopback ports), plus a chromium of its own that may only reach loopback.
import fs from "node:fs"
import path from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import type { RefpayPaymentView } from "../src/rules/payment-view"

// Plain-Node helpers: the browser launcher (scripts/lib/browser.js) and the phase's demos (shared-demo.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { launchChromium } = require("../scripts/lib/browser") as {
  launchChromium: (options?: object) => Promise<BrowserContext>
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DEMO_ENV, logFile } = require("./shared-demo") as { DEMO_ENV: string; logFile: string }

export const root = path.resolve(__dirname, "..")
export const artifacts = path.join(root, ".test-artifacts")
export const screenshotsDir = path.join(artifacts, "screenshots")

export interface DemoInfo {
  shop_url: string
  storefront_url: string
  admin_url: string
  admin_email: string
  admin_password: string
  publishable_key: string
  region_id: string
  sandbox_url: string
}

export interface SandboxPayment {
  payment_id: string
  status: string
  amount: string
  additional_data: { entity: string; reference: string }
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"])

/** The customer's address on the suites' orders. */
export const PORTO_ADDRESS = {
  first_name: "João",
  last_name: "Pereira",
  address_1: "Avenida dos Aliados 10",
  postal_code: "4000-064",
  city: "Porto",
  province: "Porto",
  phone: "+351223456789",
  country_code: "pt",
}

/**
 * The worker's demo stack (started by jest's globalSetup: building it takes minutes on a fresh clone) and a
 * browser of the suite's own, opened before its first test and closed after its last. A suite's own beforeAll,
 * declared after this call, runs once it is up.
 */
export function demoSessionForSuite(): DemoSession {
  const session = new DemoSession()
  beforeAll(() => session.start(), 120_000)
  afterAll(() => session.stop(), 60_000)
  return session
}

export class DemoSession {
  browser!: BrowserContext
  /** Requests the browser tried to send off this machine (aborted). */
  blocked: string[] = []
  readonly info: DemoInfo

  constructor() {
    const shared = process.env[DEMO_ENV]
    if (!shared) throw new Error(`no demo: the browser suites run with jest's e2e globalSetup (npm test -- --e2e)`)
    // One stack per jest worker (shared-demo.js): a worker's suites run one after another on its own.
    const demos = JSON.parse(shared) as DemoInfo[]
    this.info = demos[(Number(process.env.JEST_WORKER_ID ?? "1") - 1) % demos.length]!
  }

  async start(): Promise<void> {
    const log = (line: string) => fs.appendFileSync(logFile, `${line}\n`)
    this.browser = await launchChromium({ log })
    await this.browser.route("**/*", (route) => {
      const url = new URL(route.request().url())
      if (url.protocol === "data:" || url.protocol === "blob:" || LOOPBACK.has(url.hostname)) return route.continue()
      this.blocked.push(url.href)
      return route.abort()
    })
  }

  async stop(): Promise<void> {
    await this.browser?.close().catch(() => undefined)
  }

  async screenshot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(screenshotsDir, `${name}.png`), fullPage: true })
  }

  /** A store API call with the demo's publishable key. */
  async store<T = any>(method: "GET" | "POST", urlPath: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.info.shop_url}${urlPath}`, {
      method,
      headers: { "x-publishable-api-key": this.info.publishable_key, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${urlPath}: ${response.status} ${text}`)
    return JSON.parse(text) as T
  }

  async refpayOfOrder(orderId: string): Promise<RefpayPaymentView> {
    const { refpay } = await this.store<{ refpay: RefpayPaymentView }>("GET", `/store/refpay/orders/${orderId}`)
    return refpay
  }

  /** A sandbox control call (`/__sandbox/...`). */
  async sandbox<T = any>(method: "GET" | "POST" | "DELETE", urlPath: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.info.sandbox_url}/__sandbox${urlPath}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`sandbox ${method} ${urlPath}: ${response.status} ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }

  /** The single variant of one of the demo's products (demo/src/scripts/portuguese-shop.ts), by the product's handle. */
  async variantId(handle: string): Promise<string> {
    const query = new URLSearchParams({ region_id: this.info.region_id, handle, fields: "id,*variants" })
    const { products } = await this.store("GET", `/store/products?${query}`)
    return products[0].variants[0].id
  }

  /** Cart -> shipping -> REFPAY session -> complete through the store API; returns the order id. */
  async placeOrderThroughApi(handle = "azulejo"): Promise<string> {
    const { cart } = await this.store("POST", "/store/carts", {
      region_id: this.info.region_id,
      email: "joao.pereira@example.com",
      items: [{ variant_id: await this.variantId(handle), quantity: 1 }],
      shipping_address: PORTO_ADDRESS,
      billing_address: PORTO_ADDRESS,
    })
    const { shipping_options } = await this.store("GET", `/store/shipping-options?cart_id=${cart.id}`)
    await this.store("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0].id })
    const { payment_collection } = await this.store("POST", "/store/payment-collections", { cart_id: cart.id })
    await this.store("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, {
      provider_id: "pp_refpay_refpay",
    })
    const completion = await this.store("POST", `/store/carts/${cart.id}/complete`)
    if (completion.type !== "order") throw new Error(`cart not completed: ${JSON.stringify(completion.error)}`)
    return completion.order.id
  }

  /** Polls the store route until the order's REFPAY status is `status`. */
  async waitForStatus(
    orderId: string,
    status: RefpayPaymentView["status"],
    timeoutMs = 30_000
  ): Promise<RefpayPaymentView> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const refpay = await this.refpayOfOrder(orderId)
      if (refpay.status === status) return refpay
      if (Date.now() > deadline) throw new Error(`order ${orderId} stayed ${refpay.status} (wanted ${status})`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  }
}

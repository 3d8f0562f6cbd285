// Medusa's dtc-starter as a shop runs it with REFPAY: the starter's current commit, storefront-kit/nextjs-starter's
// refpay-dtc-starter.patch applied by scripts/lib/dtc-starter.js, the packed plugin installed, `next build` and
// `next start` against the demo shop. A checkout through the starter's own pages with Multibanco, the order page's
// box (medusa-payment-refpay/storefront) turning "Pago"; an edit that owes more; Medusa's payment link opened in the
// starter, a reference issued there, paid, "Pago". Only with `npm test -- --starter` (npm install and next build take
// minutes). With REFPAY_KIT_SCREENSHOTS=1 its screenshots replace the kit README's starter ones.
import fs from "node:fs"
import path from "node:path"
import type { Page } from "playwright-core"
import { AdminSession } from "./admin-session"
import { axeViolations } from "./axe"
import { artifacts, demoSessionForSuite, PORTO_ADDRESS, root } from "./demo-session"

/* eslint-disable @typescript-eslint/no-require-imports */
const { buildDtcStarter, startDtcStarter } = require("../scripts/lib/dtc-starter")
const { freePort } = require("../scripts/lib/postgres")
/* eslint-enable @typescript-eslint/no-require-imports */

const session = demoSessionForSuite()
const admin = new AdminSession(session)
const logFile = path.join(artifacts, "dtc-starter.log")
let starter: { url: string; stop: () => Promise<void> } | undefined
let commit = ""

beforeAll(async () => {
  const port = await freePort()
  fs.writeFileSync(logFile, "")
  const built = await buildDtcStarter({
    shopUrl: session.info.shop_url,
    publishableKey: session.info.publishable_key,
    baseUrl: `http://localhost:${port}`,
    tarball: path.join(root, ".demo", "pack", "medusa-payment-refpay.tgz"),
    logFile,
  })
  commit = built.commit
  starter = await startDtcStarter({ storefront: built.storefront, env: built.env, port, logFile })
}, 30 * 60_000)

afterAll(async () => {
  await starter?.stop()
})

async function shot(page: Page, name: string, selector: string): Promise<void> {
  await session.screenshot(page, name)
  if (process.env.REFPAY_KIT_SCREENSHOTS === "1") {
    const dir = path.join(root, "storefront-kit", "screenshots")
    fs.mkdirSync(dir, { recursive: true })
    await page
      .locator(selector)
      .first()
      .screenshot({ path: path.join(dir, `${name}.png`) })
  }
}

describe(`dtc-starter with refpay-dtc-starter.patch`, () => {
  it("checkout with Multibanco, the order page turning Pago, an edit owing more, the payment link paid in the starter", async () => {
    const url = starter!.url
    const page = await session.browser.newPage()
    console.log(`dtc-starter commit ${commit} on ${url}`)

    // The starter's own checkout: a product, a Portuguese address, the shop's delivery, Multibanco, place order.
    await page.goto(`${url}/pt/products/azulejo`)
    // The desktop and the mobile "Add to cart" (enabled once the page has hydrated and chosen the only variant); the
    // cart is written by a server action, a POST to the page, before the checkout may open.
    const added = page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/pt/products/azulejo",
      { timeout: 60_000 }
    )
    await page.getByTestId("add-product-button").first().click({ timeout: 60_000 })
    await added
    await page.goto(`${url}/pt/checkout?step=address`)
    await page.getByTestId("shipping-first-name-input").fill(PORTO_ADDRESS.first_name, { timeout: 60_000 })
    await page.getByTestId("shipping-last-name-input").fill(PORTO_ADDRESS.last_name)
    await page.getByTestId("shipping-address-input").fill(PORTO_ADDRESS.address_1)
    await page.getByTestId("shipping-postal-code-input").fill(PORTO_ADDRESS.postal_code)
    await page.getByTestId("shipping-city-input").fill(PORTO_ADDRESS.city)
    await page.getByTestId("shipping-country-select").selectOption("pt")
    await page.getByTestId("shipping-email-input").fill("joao.pereira@example.com")
    await page.getByTestId("shipping-phone-input").fill(PORTO_ADDRESS.phone)
    await page.getByTestId("submit-address-button").click()
    await page.getByTestId("delivery-option-radio").first().click({ timeout: 60_000 })
    await page.getByTestId("submit-delivery-option-button").click()
    await page.getByText("Multibanco", { exact: true }).first().click({ timeout: 60_000 })
    await page.getByTestId("submit-payment-button").click()
    await page.getByTestId("submit-order-button").click({ timeout: 60_000 })
    await page.waitForURL(/\/order\/order_[^/]+\/confirmed/, { timeout: 90_000 })
    const orderId = new URL(page.url()).pathname.split("/").at(-2)!

    // The order page: the payment box from the package, the platform's exact reference, then "Pago" by itself.
    const box = page.getByTestId("refpay-payment-instructions")
    await box.getByTestId("refpay-reference").filter({ hasText: /\d/ }).waitFor({ timeout: 30_000 })
    const checkout = await session.refpayOfOrder(orderId)
    const platform = await session.sandbox("GET", `/payments/${checkout.payment_id}`)
    expect(await box.getByTestId("refpay-entity").textContent()).toBe(platform.additional_data.entity)
    expect(await box.getByTestId("refpay-reference").textContent()).toBe(platform.additional_data.reference)
    expect(await box.getByTestId("refpay-amount").textContent()).toBe(checkout.amount_display)
    expect(await axeViolations(page, '[data-testid="refpay-payment-instructions"]')).toEqual([])
    await shot(page, "dtc-starter-order-awaiting", ".refpay-box")
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true))
    await session.sandbox("POST", `/payments/${checkout.payment_id}/pay`)
    await box.locator('[data-testid="refpay-status"][data-status="paid"]').waitFor({ timeout: 30_000 })
    expect(await box.getByTestId("refpay-status").textContent()).toBe("Estado: Pago")
    await expect(page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).resolves.toBe(true)

    // The shop owner adds a mug (Medusa's order-edit routes, as the admin's "Edit order" calls them): 19.99 due.
    const query = new URLSearchParams({ region_id: session.info.region_id, handle: "caneca", fields: "id,*variants" })
    const { products } = await session.store("GET", `/store/products?${query}`)
    await admin.api("POST", "/admin/order-edits", { order_id: orderId })
    await admin.api("POST", `/admin/order-edits/${orderId}/items`, {
      items: [{ variant_id: products[0].variants[0].id, quantity: 1 }],
    })
    await admin.api("POST", `/admin/order-edits/${orderId}/request`, {})
    await admin.api("POST", `/admin/order-edits/${orderId}/confirm`, {})
    const due = (await admin.paymentRequests(orderId)).collections.find((c) => c.state === "requestable")!

    // Medusa's payment link as the admin builds it, opened in the starter (its middleware adds the country).
    await page.goto(`${url}/payment-collection/${due.id}?order_id=${orderId}`)
    await page.waitForURL(new RegExp(`/pt/payment-collection/${due.id}`), { timeout: 60_000 })
    const link = page.getByTestId("refpay-payment-collection")
    const item = link.getByTestId("refpay-outstanding-item")
    await item.waitFor({ timeout: 60_000 })
    expect((await item.getByTestId("refpay-outstanding-due").textContent())?.replace(/\s/g, " ")).toBe(
      "Valor em falta: 19,99 €"
    )
    await item.getByRole("button", { name: "Obter referência para pagamento" }).click()
    await item.getByTestId("refpay-outstanding-reference").filter({ hasText: /\d/ }).waitFor({ timeout: 30_000 })
    const issued = (await admin.paymentRequests(orderId)).collections.find((c) => c.id === due.id)!.refpay!
    expect(await item.getByTestId("refpay-outstanding-reference").textContent()).toBe(issued.reference)
    expect(await axeViolations(page, '[data-testid="refpay-payment-collection"]')).toEqual([])
    await shot(page, "dtc-starter-payment-link-awaiting", ".refpay-box")
    await session.sandbox("POST", `/payments/${issued.payment_id}/pay`)
    await item.locator('[data-testid="refpay-outstanding-status"][data-status="paid"]').waitFor({ timeout: 30_000 })
    expect(await item.getByTestId("refpay-outstanding-status").textContent()).toBe("Estado: Pago")
    await shot(page, "dtc-starter-payment-link-paid", ".refpay-box")
    // Nothing left loopback but the starter's own Stripe.js loader (its checkout loads it whatever the method).
    expect(session.blocked.filter((u) => !u.startsWith("https://js.stripe.com/"))).toEqual([])
    await page.close()
  })
})

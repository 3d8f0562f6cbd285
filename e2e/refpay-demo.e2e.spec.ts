// The demo, tried the way a shopper and a shop owner try it: in a real browser (Debian's chromium), against the
// whole stack started by the same code as `npm run demo`. Screenshots go to .test-artifacts/screenshots/.
import type { Page } from "playwright-core"
import type { PaymentRequestsView } from "../src/queries/order-payment-requests"
import { AdminSession } from "./admin-session"
import { demoSessionForSuite } from "./demo-session"

const session = demoSessionForSuite()
const admin = new AdminSession(session)

describe("storefront", () => {
  // The order page's payment box is medusa-payment-refpay/storefront's component, from the packed package as shipped.
  it("places a REFPAY order, shows the platform's exact entity and reference with copy buttons, and turns paid without a reload", async () => {
    const page = await session.browser.newPage()
    const storefront = new URL(session.info.storefront_url).origin
    await session.browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: storefront })
    const blockedBefore = session.blocked.length

    await page.goto(session.info.storefront_url)
    await page.getByTestId("choose-caneca").click()
    await expectText(page, "selected-product", /Caneca de cerâmica/)
    await session.screenshot(page, "01-storefront-checkout")

    await page.getByTestId("place-order").click()
    await page.waitForURL(/\/order\/order_/, { timeout: 60_000 })
    const reference = page.getByTestId("refpay-reference")
    await reference.filter({ hasText: /\d/ }).waitFor({ timeout: 30_000 })
    const orderId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!)

    // What the platform holds, read from the sandbox directly.
    const refpay = await session.refpayOfOrder(orderId)
    const platform = await session.sandbox<{ additional_data: { entity: string; reference: string }; status: string }>(
      "GET",
      `/payments/${refpay.payment_id}`
    )
    expect(platform.status).toBe("WAITING")
    expect(await page.getByTestId("refpay-entity").textContent()).toBe(platform.additional_data.entity)
    expect(await reference.textContent()).toBe(platform.additional_data.reference)
    // As the shop formats it (Intl puts a no-break space before the euro sign).
    expect(await page.getByTestId("refpay-amount").textContent()).toBe(refpay.amount_display)
    expect(refpay.amount_display.replace(/\s/g, " ")).toBe("24,98 €")
    expect(await page.getByTestId("refpay-expiry").textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}/)
    const box = page.getByTestId("refpay-payment-instructions")
    for (const label of ["Entidade", "Referência", "Montante", "Data limite"]) {
      await expect(box.getByText(label, { exact: true }).isVisible()).resolves.toBe(true)
    }
    await expectText(page, "refpay-status", "Estado: A aguardar pagamento")

    await expect(page.getByTestId("refpay-entity-copy").isVisible()).resolves.toBe(true)
    await page.getByTestId("refpay-reference-copy").click()
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(platform.additional_data.reference)
    await session.screenshot(page, "02-storefront-awaiting-payment")

    // A marker on window survives only if the page is never reloaded.
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true))
    await page.getByTestId("simulate-payment").click()
    await page.locator('[data-testid="refpay-status"][data-status="paid"]').waitFor({ timeout: 30_000 })
    await expectText(page, "refpay-status", "Estado: Pago")
    await expect(page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).resolves.toBe(true)
    expect(await reference.textContent()).toBe(platform.additional_data.reference)
    await session.screenshot(page, "03-storefront-paid")

    expect(session.blocked.slice(blockedBefore)).toEqual([])
    await page.close()
  })

  it("renders the storefront export's confirmation component with the exact entity and reference, then paid", async () => {
    const page = await session.browser.newPage()
    const storefront = new URL(session.info.storefront_url).origin
    await session.browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: storefront })
    await page.goto(session.info.storefront_url)
    await page.getByTestId("choose-caneca").click()
    await page.getByTestId("place-order").click()
    await page.waitForURL(/\/order\/order_/, { timeout: 60_000 })
    const orderId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!)
    const refpay = await session.refpayOfOrder(orderId)
    const platform = await session.sandbox<{ additional_data: { entity: string; reference: string } }>(
      "GET",
      `/payments/${refpay.payment_id}`
    )

    // RefpayPaymentInstructions from medusa-payment-refpay/storefront, the packed build (demo/storefront/kit).
    await page.goto(`${storefront}/kit.html?order=${encodeURIComponent(orderId)}`)
    const kit = page.getByTestId("refpay-payment-instructions")
    await kit.getByTestId("refpay-reference").filter({ hasText: /\d/ }).waitFor({ timeout: 30_000 })
    expect(await kit.getByTestId("refpay-entity").textContent()).toBe(platform.additional_data.entity)
    expect(await kit.getByTestId("refpay-reference").textContent()).toBe(platform.additional_data.reference)
    expect(await kit.getByTestId("refpay-amount").textContent()).toBe(refpay.amount_display)
    await kit.getByTestId("refpay-reference-copy").click()
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(platform.additional_data.reference)
    await session.screenshot(page, "07-kit-component-awaiting")

    await session.sandbox("POST", `/payments/${refpay.payment_id}/pay`)
    await kit.getByTestId("refpay-status").filter({ hasText: "Pago" }).waitFor({ timeout: 30_000 })
    expect(await kit.getByTestId("refpay-reference").textContent()).toBe(platform.additional_data.reference)
    await session.screenshot(page, "08-kit-component-paid")
    await page.close()
  })

  it("shows in the kit's component what a paid order owes after the shop owner adds an item, issues its reference on request, and turns it paid", async () => {
    const orderId = await session.placeOrderThroughApi("azulejo")
    const checkout = await session.refpayOfOrder(orderId)
    await session.sandbox("POST", `/payments/${checkout.payment_id}/pay`)
    await session.waitForStatus(orderId, "paid")
    await addItemAsShopOwner(orderId, "caneca")
    const paymentRequests = () =>
      session.store<PaymentRequestsView>("GET", `/store/refpay/orders/${orderId}/payment-requests`)
    const before = await paymentRequests()
    const due = before.collections.find((c) => c.state === "requestable")!
    // The caneca's 19.99, on the collection Medusa opened for the edit; the checkout's collection stays paid.
    expect([due.amount_cents, before.outstanding_cents]).toEqual([1999, 1999])

    const page = await session.browser.newPage()
    const storefront = new URL(session.info.storefront_url).origin
    await page.goto(`${storefront}/kit.html?order=${encodeURIComponent(orderId)}`)
    const kit = page.getByTestId("refpay-payment-instructions")
    await kit.getByTestId("refpay-status").filter({ hasText: "Pago" }).waitFor({ timeout: 30_000 })
    const item = kit.locator(`[data-testid="refpay-outstanding-item"][data-collection-id="${due.id}"]`)
    await item.waitFor({ timeout: 30_000 })
    expect(await kit.getByTestId("refpay-outstanding-item").count()).toBe(1)
    expect(normalSpaces(await item.getByTestId("refpay-outstanding-due").textContent())).toBe("Valor em falta: 19,99 €")
    expect(await kit.getByTestId("refpay-reference").textContent()).toBe(checkout.reference)
    await session.screenshot(page, "09-kit-outstanding-requestable")

    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true))
    await item.getByTestId("refpay-outstanding-request").click()
    await item.getByTestId("refpay-outstanding-reference").filter({ hasText: /\d/ }).waitFor({ timeout: 30_000 })
    const issued = (await paymentRequests()).collections.find((c) => c.id === due.id)!
    expect(issued.state).toBe("awaiting_refpay")
    const reference = issued.refpay!
    expect(reference.reference).not.toBe(checkout.reference)
    expect(await item.getByTestId("refpay-outstanding-entity").textContent()).toBe(reference.entity)
    expect(await item.getByTestId("refpay-outstanding-reference").textContent()).toBe(reference.reference)
    expect(await item.getByTestId("refpay-outstanding-amount").textContent()).toBe(reference.amount_display)
    expect(reference.amount_cents).toBe(1999)
    expect(await item.getByTestId("refpay-outstanding-expiry").textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}/)
    expect(await item.getByTestId("refpay-outstanding-status").textContent()).toBe("Estado: A aguardar pagamento")
    await session.screenshot(page, "10-kit-outstanding-awaiting")

    await session.sandbox("POST", `/payments/${reference.payment_id}/pay`)
    await item.locator('[data-testid="refpay-outstanding-status"][data-status="paid"]').waitFor({ timeout: 30_000 })
    expect(await item.getAttribute("data-state")).toBe("paid")
    expect(normalSpaces(await item.getByTestId("refpay-outstanding-due").textContent())).toBe("Valor pago: 19,99 €")
    expect(await item.getByTestId("refpay-outstanding-status").textContent()).toBe("Estado: Pago")
    expect(await item.getByTestId("refpay-outstanding-reference").textContent()).toBe(reference.reference)
    expect(await kit.getByTestId("refpay-reference").textContent()).toBe(checkout.reference)
    await expect(page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).resolves.toBe(true)
    expect((await paymentRequests()).collections.map((c) => c.state)).toEqual(["paid", "paid"])
    await session.screenshot(page, "11-kit-outstanding-paid")
    await page.close()
  })

  it("shows the shop's error message and stays on the checkout when REFPAY is unavailable", async () => {
    const page = await session.browser.newPage()
    await session.sandbox("POST", "/faults", {
      path: "/dpm/payments-gwproxy/v2/payments",
      method: "POST",
      count: 20,
      status: 503,
    })
    try {
      await page.goto(session.info.storefront_url)
      await page.getByTestId("choose-postal").click()
      await page.getByTestId("place-order").click()
      const error = page.getByTestId("checkout-error")
      await error.waitFor({ state: "visible", timeout: 60_000 })
      expect((await error.textContent())?.trim()).not.toBe("")
      expect(new URL(page.url()).pathname).toBe("/")
      await session.screenshot(page, "06-storefront-payment-refused")
    } finally {
      await session.sandbox("DELETE", "/faults")
      await page.close()
    }
  })
})

describe("admin", () => {
  it("shows the REFPAY widget on the order page, awaiting (do not ship) and then paid", async () => {
    const orderId = await session.placeOrderThroughApi()
    const refpay = await session.refpayOfOrder(orderId)
    const platform = await session.sandbox<{ additional_data: { entity: string; reference: string } }>(
      "GET",
      `/payments/${refpay.payment_id}`
    )

    const page = await session.browser.newPage()
    await admin.logIn(page)
    await page.goto(`${session.info.admin_url}/orders/${orderId}`)
    const widget = page.getByTestId("refpay-widget")
    await widget.getByText(platform.additional_data.reference, { exact: true }).waitFor({ timeout: 60_000 })
    const before = await widget.innerText()
    expect(before).toContain("REFPAY")
    expect(before).toContain(platform.additional_data.entity)
    expect(before).toContain(platform.additional_data.reference)
    expect(before).toMatch(/do not ship/i)
    await session.screenshot(page, "04-admin-order-awaiting")

    await session.sandbox("POST", `/payments/${refpay.payment_id}/pay`)
    await session.waitForStatus(orderId, "paid")
    // The widget shows what it read when the page opened; "Check status now" asks again, without a reload.
    expect(await widget.getByTestId("refpay-status").innerText()).not.toBe("Paid")
    await widget.getByTestId("refpay-check-now").click()
    await widget.getByText("Paid", { exact: true }).waitFor({ timeout: 30_000 })
    await page.getByText("REFPAY status checked").waitFor({ timeout: 10_000 })
    const after = await widget.innerText()
    expect(after).toContain(platform.additional_data.entity)
    expect(after).not.toMatch(/do not ship/i)
    await session.screenshot(page, "05-admin-order-paid")
    await page.close()
  })
})

/** The shop owner adds one item of a product to a placed order through Medusa's admin order edit, as "Edit order" does. */
async function addItemAsShopOwner(orderId: string, handle: string): Promise<void> {
  const query = new URLSearchParams({ region_id: session.info.region_id, handle, fields: "id,*variants" })
  const { products } = await session.store("GET", `/store/products?${query}`)
  const items = [{ variant_id: products[0].variants[0].id, quantity: 1 }]
  await admin.api("POST", "/admin/order-edits", { order_id: orderId })
  await admin.api("POST", `/admin/order-edits/${orderId}/items`, { items })
  await admin.api("POST", `/admin/order-edits/${orderId}/request`, {})
  await admin.api("POST", `/admin/order-edits/${orderId}/confirm`, {})
}

/** Intl writes a no-break space before the euro sign. */
const normalSpaces = (text: string | null) => (text ?? "").replace(/\s/g, " ")

async function expectText(page: Page, testId: string, expected: string | RegExp): Promise<void> {
  const locator = page.getByTestId(testId)
  const deadline = Date.now() + 10_000
  let text = ""
  while (Date.now() < deadline) {
    text = (await locator.textContent()) ?? ""
    if (typeof expected === "string" ? text === expected : expected.test(text)) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`[data-testid=${testId}] shows "${text}", expected ${expected}`)
}

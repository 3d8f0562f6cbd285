// The demo, tried the way a shopper and a shop owner try it: in a real browser (Debian's chromium), against the
// whole stack started by the same code as `npm run demo`. Screenshots go to .test-artifacts/screenshots/.
import type { Page } from "playwright-core"
import { demoSessionForSuite } from "./demo-session"

const session = demoSessionForSuite()

describe("storefront", () => {
  // The order page's payment box is the Next.js starter kit's component (storefront-kit/nextjs-starter), as shipped.
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

  it("renders the Next.js starter kit's confirmation component with the exact entity and reference, then paid", async () => {
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

    // storefront-kit/nextjs-starter/RefpayPaymentInstructions.tsx, bundled as shipped (demo/storefront/kit).
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
    await logIn(page)
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

async function logIn(page: Page): Promise<void> {
  await page.goto(session.info.admin_url)
  await page.locator('input[name="email"]').fill(session.info.admin_email)
  await page.locator('input[name="password"]').fill(session.info.admin_password)
  await page.locator('button[type="submit"]').click()
  await page.waitForURL(/\/app\/orders/, { timeout: 60_000 })
}

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

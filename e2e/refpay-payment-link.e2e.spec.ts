// Medusa's payment link, end to end in the demo: a checkout in the storefront, paid; the shop owner adds an item with
// the admin's "Edit order", so the order owes more; the admin's own "Copy payment link" copied and opened in the
// storefront (/payment-collection/<id>, medusa-payment-refpay/storefront's RefpayPaymentCollection from the packed
// package); a reference issued there, paid in the sandbox, the page turning "Pago" without a reload. axe-core checks
// the components on the way. With REFPAY_KIT_SCREENSHOTS=1 the screenshots also replace storefront-kit/screenshots/,
// the ones the kit's README shows.
import fs from "node:fs"
import path from "node:path"
import type { Page } from "playwright-core"
import { AdminSession } from "./admin-session"
import { axeViolations } from "./axe"
import { demoSessionForSuite, root } from "./demo-session"

const session = demoSessionForSuite()
const admin = new AdminSession(session)

interface LinkAnswer {
  payment_collection: {
    id: string
    state: string
    amount_cents: number
    refpay: { entity: string; reference: string; amount_display: string; payment_id: string; status: string } | null
  }
}

async function shot(page: Page, name: string): Promise<void> {
  await session.screenshot(page, name)
  if (process.env.REFPAY_KIT_SCREENSHOTS === "1") {
    const dir = path.join(root, "storefront-kit", "screenshots")
    fs.mkdirSync(dir, { recursive: true })
    await page
      .locator(".refpay-box")
      .first()
      .screenshot({ path: path.join(dir, `${name}.png`) })
  }
}

const normalSpaces = (text: string | null) => (text ?? "").replace(/\s/g, " ")

describe("Medusa's payment link in the demo storefront", () => {
  it("checkout, an order edit that owes more, the admin's copied payment link opened, a reference issued there and paid, the page turning Pago; axe finds nothing", async () => {
    const storefront = new URL(session.info.storefront_url).origin
    const page = await session.browser.newPage()

    // The shopper's checkout, paid.
    await page.goto(session.info.storefront_url)
    await page.getByTestId("choose-azulejo").click()
    await page.getByTestId("place-order").click()
    await page.waitForURL(/\/order\/order_/, { timeout: 60_000 })
    const orderId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!)
    await page.getByTestId("refpay-reference").filter({ hasText: /\d/ }).waitFor({ timeout: 30_000 })
    expect(await axeViolations(page, '[data-testid="refpay-payment-instructions"]')).toEqual([])
    const checkout = await session.refpayOfOrder(orderId)
    await session.sandbox("POST", `/payments/${checkout.payment_id}/pay`)
    await session.waitForStatus(orderId, "paid")

    // The shop owner adds a mug with Medusa's "Edit order" and copies the payment link Medusa offers for the difference.
    const adminPage = await session.browser.newPage()
    await session.browser.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: new URL(session.info.admin_url).origin,
    })
    await admin.logIn(adminPage)
    await admin.addItemsInAdminUi(adminPage, orderId, "CANECA-AZUL", 1)
    await adminPage.goto(`${session.info.admin_url}/orders/${orderId}`)
    const copyLink = adminPage.getByRole("button", { name: "CopyPaymentLink code snippet" })
    await copyLink.waitFor({ timeout: 60_000 })
    await copyLink.click()
    const copied = await adminPage.evaluate(() => navigator.clipboard.readText())
    await adminPage.close()
    // Medusa builds `<admin.storefrontUrl>/payment-collection/<id>?order_id=<order>`; the demo's admin is built once
    // for every port, without a storefront address, so the link is that path: opened on the demo's storefront.
    const link = new URL(copied, storefront)
    expect(link.pathname).toMatch(/^\/payment-collection\/pay_col_/)
    const collectionId = decodeURIComponent(link.pathname.split("/").pop()!)
    const linkRoute = `/store/refpay/payment-collections/${collectionId}`
    const before = await session.store<LinkAnswer>("GET", linkRoute)
    expect(before.payment_collection).toMatchObject({ state: "requestable", amount_cents: 1999, refpay: null })

    // The payment-link page: what the collection owes and a button asking for its reference.
    await page.goto(`${storefront}${link.pathname}${link.search}`)
    const box = page.getByTestId("refpay-payment-collection")
    const item = box.getByTestId("refpay-outstanding-item")
    await item.waitFor({ timeout: 30_000 })
    expect(normalSpaces(await item.getByTestId("refpay-outstanding-due").textContent())).toBe("Valor em falta: 19,99 €")
    expect(await axeViolations(page, '[data-testid="refpay-payment-collection"]')).toEqual([])
    await shot(page, "payment-link-requestable")

    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true))
    await item.getByRole("button", { name: "Obter referência para pagamento" }).click()
    await item.getByTestId("refpay-outstanding-reference").filter({ hasText: /\d/ }).waitFor({ timeout: 30_000 })
    const issued = (await session.store<LinkAnswer>("GET", linkRoute)).payment_collection.refpay!
    const platform = await session.sandbox("GET", `/payments/${issued.payment_id}`)
    expect([platform.additional_data.entity, platform.additional_data.reference, platform.amount]).toEqual([
      issued.entity,
      issued.reference,
      "1999",
    ])
    expect(await item.getByTestId("refpay-outstanding-entity").textContent()).toBe(issued.entity)
    expect(await item.getByTestId("refpay-outstanding-reference").textContent()).toBe(issued.reference)
    expect(await item.getByTestId("refpay-outstanding-amount").textContent()).toBe(issued.amount_display)
    const status = item.getByTestId("refpay-outstanding-status")
    expect(await status.textContent()).toBe("Estado: A aguardar pagamento")
    // The status is a live region: a screen reader hears it turn "Pago".
    expect([await status.getAttribute("role"), await status.getAttribute("aria-live")]).toEqual(["status", "polite"])
    // Every copy button says what it copies.
    const copyNames = await item
      .getByRole("button")
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label")))
    expect(copyNames).toEqual(["Copiar entidade", "Copiar referência", "Copiar montante", "Copiar data limite"])
    expect(await axeViolations(page, '[data-testid="refpay-payment-collection"]')).toEqual([])
    await shot(page, "payment-link-awaiting")

    // The customer's e-mail for that reference links to this page (the demo mailbox renders it with the storefront's address).
    const { emails } = await session.store<{ emails: { text: string; data: Record<string, unknown> }[] }>(
      "GET",
      "/store/demo/mailbox"
    )
    const email = emails.find((e) => e.data.reference === issued.reference)
    expect(email?.text).toContain(`${storefront.replace("127.0.0.1", "localhost")}/payment-collection/${collectionId}`)

    // Paid with the demo page's sandbox button; the page turns "Pago" by itself.
    await page.getByTestId("simulate-link-payment").click()
    await item.locator('[data-testid="refpay-outstanding-status"][data-status="paid"]').waitFor({ timeout: 30_000 })
    expect(await status.textContent()).toBe("Estado: Pago")
    expect(normalSpaces(await item.getByTestId("refpay-outstanding-due").textContent())).toBe("Valor pago: 19,99 €")
    await expect(page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).resolves.toBe(true)
    expect(await axeViolations(page, '[data-testid="refpay-payment-collection"]')).toEqual([])
    await shot(page, "payment-link-paid")

    // The order page's box, in English this time: the checkout's reference paid (an amount paid before the page
    // opened is not listed again: the list is of what the order owes, and what turned paid while on screen).
    await page.goto(`${storefront}/kit.html?order=${encodeURIComponent(orderId)}&lang=en`)
    const kit = page.getByTestId("refpay-payment-instructions")
    await kit.getByTestId("refpay-status").filter({ hasText: "Status: Paid" }).waitFor({ timeout: 30_000 })
    expect(await kit.getByTestId("refpay-reference").textContent()).toBe(checkout.reference)
    expect(await kit.getByRole("button").evaluateAll((b) => b.map((e) => e.getAttribute("aria-label")))).toEqual([
      "Copy entity",
      "Copy reference",
      "Copy amount",
      "Copy pay by",
    ])
    expect(await axeViolations(page, '[data-testid="refpay-payment-instructions"]')).toEqual([])
    await shot(page, "order-page-en-paid")
    await page.close()
  })
})

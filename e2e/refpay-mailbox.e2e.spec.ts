// The demo's Mailbox, tried as a person would: an order, the reminder after moving the sandbox clock to D+6, then the
// expiry at D+8 and the renewal e-mail whose entity and reference are exactly the store route's new reference.
import type { Page } from "playwright-core"
import { AdminSession } from "./admin-session"
import { demoSessionForSuite } from "./demo-session"

const session = demoSessionForSuite()
// The phase's other suites share this demo: its sandbox clock goes back to the real time after the days moved here.
afterAll(() => session.sandbox("POST", "/clock", { set: Date.now() }), 30_000)

// Other suites' orders share the mailbox (a demo serves several suites): each mail is found by this order's reference.
async function mailOf(page: Page, template: string, reference: string) {
  const mail = page.locator(`[data-testid="mail"][data-template="${template}"]`).filter({ hasText: reference }).first()
  await mail.waitFor({ timeout: 60_000 })
  return mail
}

it("shows the instructions, the reminder and the renewal e-mail with the store route's new entity and reference", async () => {
  const orderId = await session.placeOrderThroughApi()
  const first = await session.refpayOfOrder(orderId)
  const page = await session.browser.newPage()
  await page.goto(new URL("/mailbox.html", session.info.storefront_url).href)

  const instructions = await mailOf(page, "refpay-payment-instructions", first.reference)
  const instructionsText = await instructions.getByTestId("mail-text").textContent()
  expect(instructionsText).toContain(`Entidade: ${first.entity}`)
  expect(instructionsText).toContain(`Referência: ${first.reference}`)

  await page.getByTestId("advance-6").click()
  const reminder = await mailOf(page, "refpay-payment-reminder", first.reference)
  expect(await reminder.getByTestId("mail-text").textContent()).toContain(`Referência: ${first.reference}`)

  await page.getByTestId("advance-2").click()
  const renewal = await mailOf(page, "refpay-reference-expired", first.reference)
  const current = await session.refpayOfOrder(orderId)
  expect(current.reference).not.toBe(first.reference)
  const renewalText = await renewal.getByTestId("mail-text").textContent()
  expect(renewalText).toContain(`Entidade: ${current.entity}`)
  expect(renewalText).toContain(`Referência: ${current.reference}`)
  expect(renewalText).toContain(`${first.entity} / ${first.reference}`)
  await session.screenshot(page, "20-mailbox-renewal")

  // The order page shows the new reference and says the earlier one expired.
  await page.goto(new URL(`/order/${orderId}`, session.info.storefront_url).href)
  await page.getByTestId("refpay-reference").filter({ hasText: current.reference }).waitFor({ timeout: 30_000 })
  expect(await page.getByTestId("refpay-note").textContent()).toMatch(/anterior expirou/)
  await session.screenshot(page, "21-storefront-renewed-reference")
  expect(session.blocked).toEqual([])
  await page.close()
}, 240_000)

it("after the shop owner edits the unpaid order, shows the 'new payment details' e-mail and the order page the new reference, which pays the order", async () => {
  const admin = new AdminSession(session)
  const orderId = await session.placeOrderThroughApi()
  const first = await session.refpayOfOrder(orderId)
  // Before the customer paid, the shop owner adds a second tile (the demo's AZULEJO-15) in the admin, clicking through
  // Medusa's own order edit as a person does: the reference must follow the new total.
  const page = await session.browser.newPage()
  await admin.logIn(page)
  await admin.addItemsInAdminUi(page, orderId, "AZULEJO-15", 1)
  await session.screenshot(page, "24-admin-order-edited")
  let current = first
  await admin.until(async () => {
    current = await session.refpayOfOrder(orderId)
    return current.reference !== first.reference
  }, "the reference replaced after the edit")
  expect(current.amount_cents).toBeGreaterThan(first.amount_cents)

  await page.goto(new URL("/mailbox.html", session.info.storefront_url).href)
  const changed = await mailOf(page, "refpay-payment-details-changed", current.reference)
  const text = await changed.getByTestId("mail-text").textContent()
  expect(text).toContain(`Entidade: ${current.entity}`)
  expect(text).toContain(`Referência: ${current.reference}`)
  expect(text).toContain(`Montante: ${current.amount_display}`)
  expect(text).toContain(`${first.entity} / ${first.reference}`)
  await session.screenshot(page, "22-mailbox-details-changed")

  await page.goto(new URL(`/order/${orderId}`, session.info.storefront_url).href)
  await page.getByTestId("refpay-reference").filter({ hasText: current.reference }).waitFor({ timeout: 30_000 })
  expect(await page.getByTestId("refpay-amount").textContent()).toBe(current.amount_display)
  await session.sandbox("POST", `/payments/${current.payment_id}/pay`)
  expect((await session.waitForStatus(orderId, "paid")).reference).toBe(current.reference)
  await session.screenshot(page, "23-storefront-edited-order-paid")
  expect(session.blocked).toEqual([])
  await page.close()
}, 240_000)

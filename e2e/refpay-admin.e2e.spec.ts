// Settings → REFPAY in the admin, and the order page's REFPAY panel asking for what an order still owes, used the way
// a shop owner uses them: in Debian's chromium, against the whole stack `npm run demo` starts. Screenshots go to
// .test-artifacts/screenshots/admin-refpay-*.png.
import fs from "node:fs"
import path from "node:path"
import type { Locator, Page } from "playwright-core"
import { AdminSession } from "./admin-session"
import { demoSessionForSuite, screenshotsDir } from "./demo-session"

const session = demoSessionForSuite()
const admin = new AdminSession(session)
/** The demo's fake secrets (scripts/lib/demo-stack.js): none may ever reach the page. */
const DEMO_SECRETS = ["sandbox-client-secret", "sandbox-client-id", "demo-webhook-secret-not-secret"]

let page: Page

beforeAll(async () => {
  page = await session.browser.newPage()
  await session.browser.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: new URL(session.info.shop_url).origin,
  })
  await admin.logIn(page)
}, 60_000)

afterAll(async () => {
  await page?.close().catch(() => undefined)
}, 30_000)

const shot = (name: string, target: Page | Locator = page) =>
  "goto" in target
    ? session.screenshot(target, `admin-refpay-${name}`)
    : target.screenshot({ path: path.join(screenshotsDir, `admin-refpay-${name}.png`) })

/** Waits until the element shows exactly `expected` (counts load after the page). */
async function waitForText(locator: Locator, expected: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let text: string | null = null
  while (Date.now() < deadline) {
    text = await locator.textContent()
    if (text === expected) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`expected "${expected}", the page shows "${text}"`)
}

async function expectNoSecretOnPage(): Promise<void> {
  const html = await page.content()
  for (const secret of DEMO_SECRETS) expect(html.includes(secret) ? secret : null).toBeNull()
}

describe("Settings → REFPAY", () => {
  it("is listed under Settings, shows the sandbox environment and the configuration, and passes the connection test", async () => {
    await page.goto(`${session.info.admin_url}/settings`)
    // The dashboard sends /settings on to /settings/store: a click before that lands would be overtaken by it.
    await page.waitForURL(/\/app\/settings\/store$/, { timeout: 60_000 })
    await page.getByRole("link", { name: "REFPAY", exact: true }).click()
    await page.waitForURL(/\/app\/settings\/refpay$/)
    await page.getByTestId("refpay-settings-page").waitFor({ timeout: 60_000 })

    const environment = page.getByTestId("refpay-environment")
    expect(await environment.getAttribute("data-environment")).toBe("sandbox")
    expect((await environment.textContent())?.trim()).toMatch(/sandbox/i)
    const credential = (key: string) =>
      page.getByTestId(`refpay-credential-${key}`).locator("[data-state]").getAttribute("data-state")
    expect(await credential("client_id")).toBe("set")
    expect(await credential("client_secret")).toBe("set")
    expect(await credential("webhook_secret")).toBe("set")
    expect(await credential("channel")).toBe("missing")
    expect(await page.getByTestId("refpay-config-payments-url").textContent()).toContain(session.info.sandbox_url)

    await page.getByTestId("refpay-test-connection").click()
    const result = page.locator('[data-testid="refpay-connection-result"]')
    await result.waitFor({ timeout: 30_000 })
    expect(await result.getAttribute("data-ok")).toBe("true")
    expect(await page.getByTestId("refpay-connection-summary").textContent()).toMatch(
      /issued a token.*404 PAYMENT_NOT_FOUND/
    )
    expect(await page.getByTestId("refpay-connection-step-token").getAttribute("data-result")).toBe("ok")
    expect(await page.getByTestId("refpay-connection-step-payments").getAttribute("data-result")).toBe("ok")
    await expectNoSecretOnPage()
    await shot("01-connection-ok", page.getByTestId("refpay-connection"))
    // The admin scrolls inside its own frame: a tall window shows the whole page.
    await page.setViewportSize({ width: 1280, height: 3200 })
    await shot("02-page")
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it("explains a failing connection test in plain words, with the platform's code and what to check", async () => {
    // The token service refuses the next request, as it does for wrong credentials.
    await session.sandbox("POST", "/faults", { path: "/auth/token", method: "POST", count: 1, status: 401 })
    try {
      await page.getByTestId("refpay-test-connection").click()
      const result = page.locator('[data-testid="refpay-connection-result"][data-ok="false"]')
      await result.waitFor({ timeout: 30_000 })
      expect(await result.getAttribute("data-problem")).toBe("credentials_refused")
      expect(await page.getByTestId("refpay-connection-summary").textContent()).toContain(
        "refused the shop's credentials (401 unauthorized_client)"
      )
      expect(await page.getByTestId("refpay-connection-hint").textContent()).toMatch(
        /REFPAY_CLIENT_ID and REFPAY_CLIENT_SECRET/
      )
      expect(await page.getByTestId("refpay-connection-step-payments").getAttribute("data-result")).toBe("skipped")
      await expectNoSecretOnPage()
      await shot("03-connection-failed", page.getByTestId("refpay-connection"))
    } finally {
      await session.sandbox("DELETE", "/faults")
    }
  })

  it("gives the webhook URL with a copy button, and lists a payment's deliveries with their order once it is paid", async () => {
    const orderId = await session.placeOrderThroughApi()
    const refpay = await session.refpayOfOrder(orderId)
    await session.sandbox("POST", `/payments/${refpay.payment_id}/pay`)
    await session.waitForStatus(orderId, "paid")
    const { order } = await admin.api("GET", `/admin/orders/${orderId}?fields=display_id`)

    await admin.openRefpayPage(page)
    const url = page.getByTestId("refpay-webhook-url")
    expect((await url.textContent())?.trim()).toBe(`${session.info.shop_url}/hooks/refpay`)
    await page.getByTestId("refpay-webhook-url-copy").click()
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      `${session.info.shop_url}/hooks/refpay`
    )
    expect(await page.getByTestId("refpay-webhook-auth").textContent()).toMatch(/x-refpay-webhook-secret.*HTTP Basic/)

    const rows = page.locator(`[data-testid="refpay-delivery-row"][data-payment-id="${refpay.payment_id}"]`)
    await rows.nth(1).waitFor({ timeout: 30_000 })
    expect(await rows.count()).toBe(2)
    for (let i = 0; i < 2; i++) {
      expect(await rows.nth(i).getAttribute("data-status")).toBe("processed")
      expect(await rows.nth(i).getByRole("link").textContent()).toBe(`Order #${order.display_id}`)
    }
    expect(await rows.nth(0).textContent()).toContain("APPROVED")
    expect(await rows.nth(1).textContent()).toContain("PENDING")
    await shot("04-webhooks-deliveries", page.getByTestId("refpay-webhooks"))

    // The filter: nothing was refused or left unprocessed here.
    await page.getByTestId("refpay-deliveries-filter").click()
    await page.getByRole("option", { name: "Not processed" }).click()
    await page.getByTestId("refpay-deliveries-empty").waitFor()
    await page.getByTestId("refpay-deliveries-filter").click()
    await page.getByRole("option", { name: "All outcomes" }).click()
    await rows.nth(1).waitFor()
    await expectNoSecretOnPage()
  })

  it("sends a sandbox test event and shows the delivery arrive", async () => {
    await admin.openRefpayPage(page)
    await page.getByTestId("refpay-send-test-event").click()
    await page.locator('[data-testid="refpay-test-event"][data-state="arrived"]').waitFor({ timeout: 40_000 })
    expect(await page.getByTestId("refpay-test-event-status").textContent()).toMatch(
      /PENDING_TRANSACTIONS.*Webhooks work/
    )
    await page.locator('[data-testid="refpay-delivery-row"][data-status="test"]').first().waitFor({ timeout: 10_000 })
    await shot("05-test-event", page.getByTestId("refpay-webhooks"))
  })

  it("lists an order paid after its cancellation, announces it above the order list, and refunds it after a confirmation", async () => {
    const orderId = await session.placeOrderThroughApi()
    const refpay = await session.refpayOfOrder(orderId)
    await admin.api("POST", `/admin/orders/${orderId}/cancel`)
    await admin.until(
      async () => (await session.sandbox("GET", `/payments/${refpay.payment_id}`)).status === "CANCELLED",
      "the reference cancelled"
    )
    await session.sandbox("POST", `/payments/${refpay.payment_id}/pay`, { force: true })
    await admin.until(
      async () => (await admin.api("GET", "/admin/refpay/attention")).counts.paid_after_cancellation > 0,
      "the late payment flagged"
    )
    const { order } = await admin.api("GET", `/admin/orders/${orderId}?fields=display_id`)

    // Above the order list.
    await page.goto(`${session.info.admin_url}/orders`)
    const banner = page.getByTestId("refpay-attention-widget")
    await banner.waitFor({ timeout: 60_000 })
    expect(await banner.textContent()).toMatch(/1 paid after cancellation \(to refund\)/)
    await shot("06-order-list-banner", banner)
    await banner.getByRole("link", { name: "Review" }).click()
    await page.getByTestId("refpay-settings-page").waitFor({ timeout: 60_000 })

    await waitForText(page.getByTestId("refpay-attention-count-paid_after_cancellation"), "1")
    await page.getByTestId("refpay-attention-tab-paid_after_cancellation").click()
    const list = page.getByTestId("refpay-attention-list-paid_after_cancellation")
    const row = list.locator(`[data-testid="refpay-attention-row"][data-order-id="${orderId}"]`)
    await row.waitFor({ timeout: 30_000 })
    expect(await row.getByTestId("refpay-order-link").textContent()).toBe(`Order #${order.display_id}`)
    expect(await row.getByTestId("refpay-row-reference").textContent()).toBe(`${refpay.entity} / ${refpay.reference}`)
    await shot("07-attention-paid-after-cancellation", page.getByTestId("refpay-attention"))

    await row.getByTestId("refpay-refund").click()
    const dialog = page.getByRole("alertdialog")
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain(`reference ${refpay.reference}`)
    await page.waitForTimeout(500) // the dialog's opening animation
    await shot("08-refund-confirmation")
    await dialog.getByRole("button", { name: /^Refund/ }).click()
    await list.getByTestId("refpay-attention-empty").waitFor({ timeout: 30_000 })
    await waitForText(page.getByTestId("refpay-attention-count-paid_after_cancellation"), "0")
    const platform = await session.sandbox("GET", `/payments/${refpay.payment_id}`)
    expect(platform.refunded_amount).toBe(String(refpay.amount_cents))
    await shot("09-attention-refunded", page.getByTestId("refpay-attention"))
  })

  it("finds the order of a reference a customer quotes, and opens it", async () => {
    const orderId = await session.placeOrderThroughApi()
    const refpay = await session.refpayOfOrder(orderId)
    await admin.openRefpayPage(page)

    // As printed on an ATM receipt, in groups of three.
    await page.getByTestId("refpay-search-reference").fill(refpay.reference.replace(/(\d{3})(?=\d)/g, "$1 "))
    await page.getByTestId("refpay-search-submit").click()
    const results = page.getByTestId("refpay-search-results")
    await results.waitFor({ timeout: 30_000 })
    expect(await results.getAttribute("data-count")).toBe("1")
    const row = results.locator(`[data-testid="refpay-search-row"][data-order-id="${orderId}"]`)
    expect(await row.getByTestId("refpay-row-reference").textContent()).toBe(`${refpay.entity} / ${refpay.reference}`)
    await shot("10-search", page.getByTestId("refpay-search"))

    // Exact, never a part: the same digits without the first one are another reference.
    await page.getByTestId("refpay-search-reference").fill(refpay.reference.slice(1))
    await page.getByTestId("refpay-search-submit").click()
    await page.locator('[data-testid="refpay-search-results"][data-count="0"]').waitFor({ timeout: 30_000 })

    await page.getByTestId("refpay-search-reference").fill(refpay.reference)
    await page.getByTestId("refpay-search-entity").fill(refpay.entity)
    await page.getByTestId("refpay-search-submit").click()
    await page
      .locator(`[data-testid="refpay-search-row"][data-order-id="${orderId}"]`)
      .getByTestId("refpay-order-link")
      .click()
    await page.waitForURL(new RegExp(`/app/orders/${orderId}$`))
    await page.getByTestId("refpay-widget").getByText(refpay.reference, { exact: true }).waitFor({ timeout: 60_000 })
  })
})

describe("the order page's REFPAY panel: an order that owes more after its payment", () => {
  it("shows the amount due, requests it by REFPAY with the reference the route answers, and shows it paid", async () => {
    // A paid REFPAY order to which the shop owner adds a mug with the admin's "Edit order": Medusa opens a payment
    // collection for the difference.
    const orderId = await session.placeOrderThroughApi()
    const checkout = await session.refpayOfOrder(orderId)
    await session.sandbox("POST", `/payments/${checkout.payment_id}/pay`)
    await session.waitForStatus(orderId, "paid")
    await admin.addItemsInAdminUi(page, orderId, "CANECA-AZUL", 1)
    const before = await admin.paymentRequests(orderId)
    const due = before.collections.find((c) => c.state === "requestable")!
    expect(before.outstanding_cents).toBe(due.amount_cents)
    expect(due.refpay).toBeNull()

    await page.goto(`${session.info.admin_url}/orders/${orderId}`)
    const widget = page.getByTestId("refpay-widget")
    const requests = widget.getByTestId("refpay-payment-requests")
    await waitForText(requests.getByTestId("refpay-outstanding"), `Amount due: ${euros(due.amount_cents)}`, 60_000)
    const row = requests.locator(`[data-testid="refpay-collection"][data-collection-id="${due.id}"]`)
    expect(await row.getAttribute("data-state")).toBe("requestable")
    expect(await row.getByTestId("refpay-collection-due").textContent()).toBe(euros(due.amount_cents))
    expect(await row.getByTestId("refpay-collection-state").textContent()).toBe("Unpaid, no reference yet")
    const paidAtCheckout = requests.locator('[data-testid="refpay-collection"][data-state="paid"]')
    expect(await paidAtCheckout.getByTestId("refpay-collection-reference").textContent()).toBe(checkout.reference)
    await shot("11-order-amount-due", widget)

    // Asked first (the customer is e-mailed), as "Issue a new reference" is.
    let confirmation = ""
    page.once("dialog", (dialog) => {
      confirmation = dialog.message()
      void dialog.accept()
    })
    await row.getByRole("button", { name: "Request payment by REFPAY", exact: true }).click()
    await page.getByText("REFPAY payment requested", { exact: true }).waitFor({ timeout: 30_000 })
    expect(confirmation).toBe(`Issue a REFPAY reference for ${euros(due.amount_cents)} and e-mail it to the customer?`)
    const requested = (await admin.paymentRequests(orderId)).collections.find((c) => c.id === due.id)!
    expect(requested.state).toBe("awaiting_refpay")
    const reference = requested.refpay!
    expect(reference.amount_cents).toBe(due.amount_cents)
    await requests.locator(`[data-collection-id="${due.id}"][data-state="awaiting_refpay"]`).waitFor()
    expect(await row.getByTestId("refpay-collection-entity").textContent()).toBe(reference.entity)
    expect(await row.getByTestId("refpay-collection-reference").textContent()).toBe(reference.reference)
    expect(await row.getByTestId("refpay-collection-amount").textContent()).toBe(reference.amount_display)
    expect(await row.getByTestId("refpay-collection-expires-at").textContent()).not.toBe("-")
    expect(await row.getByTestId("refpay-collection-state").textContent()).toBe("Awaiting payment — do not ship")
    expect(await row.getByTestId("refpay-request-payment").count()).toBe(0)
    // The platform's payment is that reference, for exactly the difference.
    const platform = await session.sandbox("GET", `/payments/${reference.payment_id}`)
    expect([platform.additional_data.reference, platform.amount]).toEqual([
      reference.reference,
      String(due.amount_cents),
    ])
    await shot("12-order-payment-requested", widget)

    await session.sandbox("POST", `/payments/${reference.payment_id}/pay`)
    await admin.until(
      async () => (await admin.paymentRequests(orderId)).outstanding_cents === 0,
      "the requested payment captured"
    )
    // The panel shows what it read when it opened; "Check status now" asks again, the collections too.
    await widget.getByTestId("refpay-check-now").click()
    await requests.locator(`[data-collection-id="${due.id}"][data-state="paid"]`).waitFor({ timeout: 30_000 })
    await waitForText(requests.getByTestId("refpay-outstanding"), "Nothing due.")
    expect(await row.getByTestId("refpay-collection-reference").textContent()).toBe(reference.reference)
    await shot("13-order-difference-paid", widget)
  })

  it("shows the owner's numbers as the routes count them (the chart's days, the time to pay, every figure), and downloads the accountant's CSV", async () => {
    const orderId = await session.placeOrderThroughApi()
    const refpay = await session.refpayOfOrder(orderId)
    await session.sandbox("POST", `/payments/${refpay.payment_id}/pay`)
    await admin.until(
      async () =>
        (await admin.api("GET", `/admin/orders/${orderId}?fields=%2Bpayment_status`)).order.payment_status ===
        "captured",
      "the payment captured"
    )
    const { shown, conversion, recovered } = await admin.numbersAtRest(page)
    const numbers = page.getByTestId("refpay-numbers")
    await numbers.getByRole("heading", { name: "Your REFPAY numbers", exact: true }).waitFor({ timeout: 30_000 })
    expect(shown.perDay).toEqual(conversion.per_day)
    expect(shown.timeToPay).toEqual(conversion.time_to_pay)
    for (const outcome of ["issued", "paid", "waiting", "expired", "renewed", "cancelled"])
      expect({ outcome, ...shown.figures[outcome] }).toEqual({ outcome, ...conversion[outcome] })
    for (const kind of Object.keys(recovered))
      expect({ kind, ...shown.figures[kind] }).toEqual({ kind, ...recovered[kind] })
    expect(conversion.paid.count).toBeGreaterThan(0)
    const share = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 1 }).format(
      conversion.paid_share
    )
    await waitForText(page.getByTestId("refpay-numbers-paid-share"), `${share} paid`)
    await numbers.getByRole("heading", { name: "Medusa against the platform", exact: true }).waitFor()

    const download = page.waitForEvent("download")
    await page.getByTestId("refpay-numbers-csv").click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/^refpay-refpay-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = fs.readFileSync((await file.path())!, "utf8")
    expect(csv.startsWith("\uFEFFEncomenda;Entidade;Referência;Valor (EUR);")).toBe(true)
    expect(csv).toContain(`;${refpay.entity};${refpay.reference.replace(/(\d{3})(?=\d)/g, "$1 ")};`)
    await page.setViewportSize({ width: 1280, height: 2000 })
    await shot("14-numbers", numbers)

    // The admin's dark theme (its own setting, kept in the browser): the bars and text take the theme's colours.
    const light = await numbersColours(page)
    await page.evaluate(() => localStorage.setItem("medusa_admin_theme", "dark"))
    try {
      await page.reload()
      await numbers.getByRole("heading", { name: "Your REFPAY numbers", exact: true }).waitFor({ timeout: 30_000 })
      await page.getByTestId("refpay-numbers-day").first().waitFor({ state: "attached" })
      const dark = await numbersColours(page)
      expect(dark.theme).toBe("dark")
      expect(dark.paidBar).not.toBe(light.paidBar)
      expect(dark.text).not.toBe(light.text)
      expect(dark.background).not.toBe(light.background)
      for (const theme of [light, dark])
        // both series stand out from the section in either theme
        expect(new Set([theme.issuedBar, theme.paidBar, theme.background]).size).toBe(3)
      await shot("15-numbers-dark", numbers)
    } finally {
      await page.evaluate(() => localStorage.setItem("medusa_admin_theme", "light"))
      await page.reload()
      await page.setViewportSize({ width: 1280, height: 900 })
    }
  })
})

/** The numbers section's colours as the browser computes them: a day's two bars, its heading, its background. */
function numbersColours(page: Page) {
  return page.evaluate(() => {
    const bars = document.querySelectorAll('[data-testid="refpay-numbers-day"]:first-of-type rect')
    const fill = (bar: Element | undefined) => (bar ? getComputedStyle(bar).fill : "")
    const heading = document.querySelector('[data-testid="refpay-numbers"] h2, [data-testid="refpay-numbers"] h1')
    return {
      theme: document.documentElement.classList.contains("dark") ? "dark" : "light",
      issuedBar: fill(bars[0]),
      paidBar: fill(bars[1]),
      text: heading ? getComputedStyle(heading).color : "",
      background: getComputedStyle(document.querySelector('[data-testid="refpay-numbers"]') ?? document.body)
        .backgroundColor,
    }
  })
}

/** Cents as the admin shows them in English. */
function euros(cents: number): string {
  return new Intl.NumberFormat("en", { style: "currency", currency: "EUR" }).format(cents / 100)
}

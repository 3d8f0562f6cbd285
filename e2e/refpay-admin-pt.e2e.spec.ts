// Settings → REFPAY and the order widget in European Portuguese, chosen the way a shop owner chooses it: Profile →
// Edit → Language → Português (Portugal). Screenshots go to .test-artifacts/screenshots/admin-refpay-pt-*.png.
//
// The dashboard keeps the chosen language in the browser only (i18next's language detector: the "lng" cookie and
// localStorage key, @medusajs/dashboard's components/utilities/i18n and i18n/config): nothing is stored on the server,
// and this suite's chromium (a throwaway profile) takes it away when it closes. The other suites stay in English.
import path from "node:path"
import type { Locator, Page } from "playwright-core"
import { AdminSession } from "./admin-session"
import { demoSessionForSuite, screenshotsDir } from "./demo-session"

const session = demoSessionForSuite()
const admin = new AdminSession(session)

let page: Page

beforeAll(async () => {
  page = await session.browser.newPage()
  await admin.logIn(page)
  await chooseLanguage("Português (Portugal)")
}, 120_000)

afterAll(async () => {
  await page?.close().catch(() => undefined)
}, 30_000)

const shot = (name: string, target: Page | Locator = page) =>
  "goto" in target
    ? session.screenshot(target, `admin-refpay-pt-${name}`)
    : target.screenshot({ path: path.join(screenshotsDir, `admin-refpay-pt-${name}.png`) })

/** Profile → Edit: the language select, then Save (the dashboard's own form, in English until saved). */
async function chooseLanguage(language: string): Promise<void> {
  await page.goto(`${session.info.admin_url}/settings/profile/edit`)
  const drawer = page.getByRole("dialog")
  await drawer.waitFor({ timeout: 60_000 })
  // The drawer's one select; first and last name are text boxes.
  await drawer.getByRole("combobox").click()
  await page.getByRole("option", { name: language, exact: true }).click()
  await drawer.getByRole("button", { name: "Save", exact: true }).click()
  await drawer.waitFor({ state: "hidden", timeout: 30_000 })
  // Where the dashboard keeps the choice: i18next's detector caches it under "lng" (cookie and localStorage).
  expect(await page.evaluate(() => window.localStorage.getItem("lng"))).toBe("ptPT")
}

/** Waits until the element's text, trimmed, is exactly `expected` (sections load after the page). */
async function waitForText(locator: Locator, expected: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let text: string | null = null
  while (Date.now() < deadline) {
    text = (await locator.textContent())?.trim() ?? null
    if (text === expected) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`expected "${expected}", the page shows "${text}"`)
}

const heading = (section: Locator, name: string) => section.getByRole("heading", { name, exact: true })

describe("Settings → REFPAY in Portuguese", () => {
  it("names the page's sections, buttons and states in Portuguese", async () => {
    await page.goto(`${session.info.admin_url}/settings`)
    // The dashboard sends /settings on to /settings/store: a click before that lands would be overtaken by it.
    await page.waitForURL(/\/app\/settings\/store$/, { timeout: 60_000 })
    await page.getByRole("link", { name: "REFPAY", exact: true }).click()
    await page.waitForURL(/\/app\/settings\/refpay$/)
    await page.getByTestId("refpay-settings-page").waitFor({ timeout: 60_000 })

    const connection = page.getByTestId("refpay-connection")
    expect(await page.getByTestId("refpay-environment").getAttribute("data-environment")).toBe("sandbox")
    await waitForText(page.getByTestId("refpay-test-connection"), "Testar ligação")
    expect(await page.getByTestId("refpay-environment-note").textContent()).toContain("Ambiente de testes (sandbox)")
    expect(await connection.textContent()).toContain("Pagamentos por referência")

    const attention = page.getByTestId("refpay-attention")
    await heading(attention, "Pagamentos que precisam de atenção").waitFor()
    expect(await page.getByTestId("refpay-attention-tab-expiring").textContent()).toContain(
      "A expirar nas próximas 24 h"
    )
    expect(await page.getByTestId("refpay-attention-tab-paid_after_cancellation").textContent()).toContain(
      "Pagos após cancelamento"
    )

    const search = page.getByTestId("refpay-search")
    await heading(search, "Encontrar uma encomenda pela referência").waitFor()
    await search.getByText("Referência", { exact: true }).waitFor()
    await search.getByText("Entidade", { exact: true }).waitFor()
    await waitForText(page.getByTestId("refpay-search-submit"), "Pesquisar")

    const webhooks = page.getByTestId("refpay-webhooks")
    await heading(webhooks, "Webhooks").waitFor()
    await webhooks.getByText("URL a indicar à plataforma", { exact: true }).waitFor()
    await webhooks.getByText("Últimas entregas", { exact: true }).waitFor()
    expect(await page.getByTestId("refpay-deliveries-filter").textContent()).toContain("Todos os resultados")
    expect(await page.getByTestId("refpay-webhook-auth").textContent()).toMatch(
      /segredo de webhook da loja.*x-refpay-webhook-secret.*HTTP Basic/
    )

    const configuration = page.getByTestId("refpay-configuration")
    await heading(configuration, "Configuração").waitFor()
    await waitForText(page.getByTestId("refpay-credential-client_id").locator("[data-state]"), "Definido")
    await waitForText(page.getByTestId("refpay-credential-channel").locator("[data-state]"), "Em falta")

    // The admin scrolls inside its own frame: a tall window shows the whole page.
    await page.setViewportSize({ width: 1280, height: 3200 })
    await shot("01-page")
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it("shows an order's REFPAY payment in Portuguese, entity and reference exactly as the store route gives them", async () => {
    const orderId = await session.placeOrderThroughApi()
    const refpay = await session.refpayOfOrder(orderId)

    await page.goto(`${session.info.admin_url}/orders/${orderId}`)
    const widget = page.getByTestId("refpay-widget")
    await widget.waitFor({ timeout: 60_000 })
    await waitForText(widget.getByTestId("refpay-entity"), refpay.entity)
    expect(await widget.getByTestId("refpay-reference").textContent()).toBe(refpay.reference)
    expect(await widget.getByTestId("refpay-amount").textContent()).toBe(refpay.amount_display)

    expect(await widget.getAttribute("data-status")).toBe("awaiting")
    await waitForText(widget.getByTestId("refpay-status"), "A aguardar pagamento — não enviar")
    expect(await widget.getByTestId("refpay-do-not-ship").textContent()).toContain(
      "Não envie a encomenda enquanto a REFPAY não confirmar o pagamento."
    )
    for (const label of ["Entidade", "Referência", "Montante", "Estado na plataforma", "Pagar até"]) {
      await widget.getByText(label, { exact: true }).waitFor()
    }
    // Dates in the language's own form (pt-PT: day/month/year).
    expect(await widget.getByTestId("refpay-expires-at").textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}/)
    await waitForText(widget.getByTestId("refpay-check-now"), "Verificar estado agora")
    await shot("02-order-widget", widget)

    await widget.getByTestId("refpay-check-now").click()
    await page.getByText("Estado REFPAY verificado", { exact: true }).waitFor({ timeout: 30_000 })
    expect(await widget.getByTestId("refpay-reference").textContent()).toBe(refpay.reference)
  })

  it("offers an order created in the admin, with no REFPAY payment yet, the request of what it owes, in Portuguese", async () => {
    const orderId = await admin.createOrderInAdmin(await session.variantId("azulejo"))
    const { outstanding_cents } = await admin.paymentRequests(orderId)
    expect(outstanding_cents).toBeGreaterThan(0)

    await page.goto(`${session.info.admin_url}/orders/${orderId}`)
    const widget = page.getByTestId("refpay-widget")
    const requests = widget.getByTestId("refpay-payment-requests")
    await requests.waitFor({ timeout: 60_000 })
    await requests.getByText("Pagamentos desta encomenda", { exact: true }).waitFor()
    await waitForText(requests.getByTestId("refpay-outstanding"), `Montante em dívida: ${euros(outstanding_cents)}`)
    const button = requests.getByTestId("refpay-request-payment")
    await waitForText(button, "Pedir pagamento por REFPAY")
    await shot("04-order-payment-request", widget)

    let confirmation = ""
    page.once("dialog", (dialog) => {
      confirmation = dialog.message()
      void dialog.accept()
    })
    await button.click()
    await page.getByText("Pedido de pagamento REFPAY enviado", { exact: true }).waitFor({ timeout: 30_000 })
    expect(confirmation).toBe(
      `Emitir uma referência REFPAY de ${euros(outstanding_cents)} e enviá-la por e-mail ao cliente?`
    )
    // The order now has a REFPAY payment: the panel shows its reference as for a checkout's.
    const [requested] = (await admin.paymentRequests(orderId)).collections
    const reference = requested.refpay!
    expect([requested.state, reference.amount_cents]).toEqual(["awaiting_refpay", outstanding_cents])
    await waitForText(widget.getByTestId("refpay-reference"), reference.reference)
    expect(await widget.getByTestId("refpay-entity").textContent()).toBe(reference.entity)
    expect(await widget.getByTestId("refpay-amount").textContent()).toBe(reference.amount_display)
    await waitForText(widget.getByTestId("refpay-status"), "A aguardar pagamento — não enviar")
    await shot("05-order-payment-requested", widget)
  })

  it("finds the order of a reference and names it as an Encomenda", async () => {
    const orderId = await session.placeOrderThroughApi()
    const refpay = await session.refpayOfOrder(orderId)
    const { order } = await admin.api("GET", `/admin/orders/${orderId}?fields=display_id`)

    await admin.openRefpayPage(page)
    await page.getByTestId("refpay-search-reference").fill(refpay.reference)
    await page.getByTestId("refpay-search-submit").click()
    const results = page.locator('[data-testid="refpay-search-results"][data-count="1"]')
    await results.waitFor({ timeout: 30_000 })
    expect(await results.textContent()).toContain(`1 pagamento com ${refpay.reference}:`)
    for (const column of ["Encomenda", "Entidade / referência", "Montante", "Emitida", "Pagamento"]) {
      await results.getByRole("columnheader", { name: column, exact: true }).waitFor()
    }
    const row = results.locator(`[data-testid="refpay-search-row"][data-order-id="${orderId}"]`)
    expect(await row.getByTestId("refpay-order-link").textContent()).toBe(`Encomenda #${order.display_id}`)
    expect(await row.getByTestId("refpay-row-reference").textContent()).toBe(`${refpay.entity} / ${refpay.reference}`)
    expect(await row.textContent()).toContain("A aguardar pagamento")
    await shot("03-search", page.getByTestId("refpay-search"))
  })

  it("shows the owner's numbers in Portuguese, as the routes count them", async () => {
    const { shown, conversion } = await admin.numbersAtRest(page)
    const numbers = page.getByTestId("refpay-numbers")
    await heading(numbers, "Os seus números REFPAY").waitFor({ timeout: 30_000 })
    await heading(numbers, "Conversão das referências emitidas").waitFor()
    await heading(numbers, "Dias da emissão ao pagamento").waitFor()
    await heading(numbers, "O que o plugin recuperou").waitFor()
    await heading(numbers, "O Medusa face à plataforma").waitFor()
    expect(shown.perDay).toEqual(conversion.per_day)
    expect(shown.timeToPay).toEqual(conversion.time_to_pay)
    expect(shown.figures.issued).toEqual(conversion.issued)
    const share = new Intl.NumberFormat("pt-PT", { style: "percent", maximumFractionDigits: 1 }).format(
      conversion.paid_share
    )
    await waitForText(page.getByTestId("refpay-numbers-paid-share"), `${share} pagas`)
    for (const label of ["Emitidas", "Pagas", "A aguardar", "Expiradas", "Renovadas", "Canceladas"])
      await numbers.getByText(label, { exact: true }).first().waitFor()
    await waitForText(page.getByTestId("refpay-numbers-csv"), "Descarregar CSV (para o contabilista)")
    await page.setViewportSize({ width: 1280, height: 2000 })
    await shot("04-numbers", numbers)
    await page.setViewportSize({ width: 1280, height: 900 })
  })
})

/** Cents as the admin shows them in Portuguese ("29,89 €", a no-break space before the sign). */
function euros(cents: number): string {
  return new Intl.NumberFormat("pt-PT", { style: "currency", currency: "EUR" }).format(cents / 100)
}

import {
  formatEmailAmount,
  formatEmailDeadline,
  REFPAY_EMAIL_TEMPLATES,
  renderRefpayEmail,
} from "../render-refpay-email"

const NBSP = /\u00a0/g
const base = {
  order_id: "order_1",
  display_id: 1042,
  entity: "01234",
  reference: "000123450",
  amount_cents: 2498,
  expires_at: "2026-11-30T23:30:00.000Z",
}

describe("renderRefpayEmail: the plugin's e-mails for any provider", () => {
  it("shows entity and reference exactly as the platform returned them, leading zeros included, never regrouped", () => {
    const { text, html } = renderRefpayEmail("refpay-payment-instructions", {
      ...base,
      entity: "00001",
      reference: "000000001",
    })
    expect(text).toContain("Entidade: 00001")
    expect(text).toContain("Referência: 000000001")
    expect(html).toContain("<strong>00001</strong>")
    expect(html).toContain("<strong>000000001</strong>")
    expect(text).not.toMatch(/000 000 001|0{3}\s0{3}/)
  })

  it.each([
    [1, "0,01 €", "€0.01"],
    [2498, "24,98 €", "€24.98"],
    [9_999_999, "99 999,99 €", "€99,999.99"],
  ])("amount %i cents reads %s in Portuguese and %s in English", (cents, pt, en) => {
    expect(formatEmailAmount(cents, "pt").replace(NBSP, " ")).toBe(pt)
    expect(formatEmailAmount(cents, "en")).toBe(en)
    expect(
      renderRefpayEmail("refpay-payment-reminder", { ...base, amount_cents: cents }, "pt").text.replace(NBSP, " ")
    ).toContain(`Montante: ${pt}`)
  })

  it("gives the deadline in Lisbon time (summer and winter)", () => {
    expect(formatEmailDeadline("2026-11-30T23:30:00.000Z", "pt")).toBe("30/11/2026, 23:30 (hora de Lisboa)")
    expect(formatEmailDeadline("2026-07-01T23:30:00.000Z", "en")).toBe("02/07/2026, 00:30 (Lisbon time)")
  })

  it("renews: the new reference to pay and the expired one crossed out; cancels: no reference to pay", () => {
    const expired_reference = {
      entity: "11111",
      reference: "222222222",
      amount_cents: 2498,
      expires_at: base.expires_at,
    }
    const renewed = renderRefpayEmail(
      "refpay-reference-expired",
      { ...base, outcome: "renewed", expired_reference },
      "en"
    )
    expect(renewed.subject).toBe("New payment reference for your order #1042")
    expect(renewed.text).toContain("Reference: 000123450")
    expect(renewed.text).toContain("Expired reference (do not pay): 11111 / 222222222")
    const cancelled = renderRefpayEmail("refpay-reference-expired", {
      ...base,
      outcome: "cancelled",
      expired_reference,
      order_again_url: "https://shop.example/pt",
    })
    expect(cancelled.subject).toBe("Encomenda #1042 cancelada por falta de pagamento")
    expect(cancelled.text).not.toContain("Referência: 000123450")
    expect(cancelled.text).toContain("https://shop.example/pt")
  })

  it("after an edit of the order: the new reference and amount to pay, and the replaced one crossed out", () => {
    const replaced_reference = { entity: "11111", reference: "222222222", amount_cents: 4497 }
    const pt = renderRefpayEmail("refpay-payment-details-changed", { ...base, replaced_reference })
    expect(pt.subject).toBe("Novos dados para pagamento da encomenda #1042")
    expect(pt.text.replace(NBSP, " ")).toContain("Montante: 24,98 €")
    expect(pt.text).toContain("Referência anterior, cancelada (não pague): 11111 / 222222222")
    expect(pt.html).toContain("<s>11111 / 222222222</s>")
    const en = renderRefpayEmail("refpay-payment-details-changed", { ...base, replaced_reference }, "en")
    expect(en.subject).toBe("New payment details for your order #1042")
    expect(en.text).toContain("Previous reference, cancelled (do not pay): 11111 / 222222222")
  })

  it("links a requested reference's e-mail to the storefront's payment-link page, only when the shop says where its storefront is", () => {
    const requested = { ...base, payment_collection_id: "pay_col_01ABC" }
    const pt = renderRefpayEmail("refpay-payment-instructions", requested, "pt", {
      storefrontUrl: "https://loja.example.pt/",
    })
    expect(pt.text).toContain(
      "Veja este pagamento e o seu estado em https://loja.example.pt/payment-collection/pay_col_01ABC"
    )
    expect(pt.html).toContain('<a href="https://loja.example.pt/payment-collection/pay_col_01ABC">')
    const en = renderRefpayEmail("refpay-payment-instructions", requested, "en", {
      storefrontUrl: "https://shop.example",
    })
    expect(en.text).toContain(
      "See this payment and its status at https://shop.example/payment-collection/pay_col_01ABC"
    )
    // No storefront address, or a checkout's e-mail (no collection): no link.
    expect(renderRefpayEmail("refpay-payment-instructions", requested).text).not.toContain("payment-collection")
    const checkout = renderRefpayEmail("refpay-payment-instructions", base, "pt", {
      storefrontUrl: "https://loja.example.pt",
    })
    expect(checkout.text).not.toContain("payment-collection")
  })

  it("has a subject, text and HTML for every template in both languages, with HTML escaped", () => {
    for (const template of REFPAY_EMAIL_TEMPLATES) {
      for (const locale of ["pt", "en"] as const) {
        const email = renderRefpayEmail(template, { ...base, shop_name: "Loja <Lisboa> & Co" }, locale)
        expect(email.subject.length).toBeGreaterThan(5)
        expect(email.text).toContain("Loja <Lisboa> & Co")
        expect(email.html).toContain("Loja &lt;Lisboa&gt; &amp; Co")
      }
    }
  })
})

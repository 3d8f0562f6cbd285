/**
 * Ready-made e-mails for the plugin's notification templates, so a shop can send them through any e-mail provider:
 * `renderRefpayEmail(template, data, locale, { storefrontUrl })` returns `{ subject, html, text }` in Portuguese (default) or English.
 * Entity, reference and amount are shown exactly as the platform returned them (spec 4.3: never regrouped or
 * reformatted); the amount in euros comes from the platform's cents, with a decimal comma in Portuguese; the
 * deadline is given in Lisbon time. No dependency on Medusa: usable from any notification provider.
 */

export const REFPAY_EMAIL_TEMPLATES = [
  "refpay-payment-instructions",
  "refpay-payment-reminder",
  "refpay-reference-expired",
  "refpay-payment-details-changed",
] as const
export type RefpayEmailTemplate = (typeof REFPAY_EMAIL_TEMPLATES)[number]
export type RefpayEmailLocale = "pt" | "en"

/** One reference as the customer must see it. */
export interface RefpayEmailReference {
  entity: string
  reference: string
  /** Cents, as the platform returned them. */
  amount_cents: number
  /** ISO 8601 deadline. */
  expires_at: string
}

/** What every template receives in the notification's `data` (plus the template-specific fields below). */
export interface RefpayEmailData extends Partial<RefpayEmailReference> {
  order_id: string
  display_id?: number | string | null
  shop_name?: string | null
  /** refpay-reference-expired: the reference that expired. */
  expired_reference?: RefpayEmailReference | null
  /** refpay-payment-details-changed: the reference the new one replaces (the order's total changed). */
  replaced_reference?: Omit<RefpayEmailReference, "expires_at"> | null
  /** refpay-reference-expired: "renewed" (entity/reference above are the new ones) or "cancelled". */
  outcome?: "renewed" | "cancelled"
  /** refpay-reference-expired with outcome "cancelled": where to order again. */
  order_again_url?: string | null
  /**
   * A reference the shop or the customer requested for an amount an order still owes (an edit, a claim, an exchange):
   * its payment collection. With `storefrontUrl`, the e-mail links to `<storefrontUrl>/payment-collection/<id>`, the
   * page Medusa's admin "Copy payment link" also points at.
   */
  payment_collection_id?: string | null
}

export interface RefpayEmailOptions {
  /** The storefront's address (e.g. https://shop.example.pt): with it, a requested reference's e-mail links to its page. */
  storefrontUrl?: string | null
}

export interface RenderedEmail {
  subject: string
  html: string
  text: string
}

type Texts = {
  subject: Record<RefpayEmailTemplate, (d: RefpayEmailData) => string>
  intro: Record<RefpayEmailTemplate, (d: RefpayEmailData) => string>
  labels: {
    entity: string
    reference: string
    amount: string
    deadline: string
    expiredRef: string
    replacedRef: string
  }
  howToPay: string
  orderAgain: (url: string | null | undefined) => string
  cancelledNoPay: string
  paymentLink: string
}

const order = (d: RefpayEmailData, word: string) =>
  d.display_id != null && d.display_id !== "" ? `${word} #${d.display_id}` : word

const TEXTS: Record<RefpayEmailLocale, Texts> = {
  pt: {
    subject: {
      "refpay-payment-instructions": (d) => `Dados para pagamento da ${order(d, "encomenda")}`,
      "refpay-payment-reminder": (d) => `Lembrete: pagamento da ${order(d, "encomenda")}`,
      "refpay-reference-expired": (d) =>
        d.outcome === "cancelled"
          ? `${capital(order(d, "encomenda"))} cancelada por falta de pagamento`
          : `Nova referência para pagamento da ${order(d, "encomenda")}`,
      "refpay-payment-details-changed": (d) => `Novos dados para pagamento da ${order(d, "encomenda")}`,
    },
    intro: {
      "refpay-payment-instructions": (d) =>
        `Obrigado pela sua ${order(d, "encomenda")}. Pague num Multibanco, no homebanking ou na app do seu banco com os dados abaixo.`,
      "refpay-payment-reminder": (d) =>
        `A referência da sua ${order(d, "encomenda")} ainda não foi paga e expira em breve.`,
      "refpay-reference-expired": (d) =>
        d.outcome === "cancelled"
          ? `A referência da sua ${order(d, "encomenda")} expirou sem pagamento e a encomenda foi cancelada.`
          : `A referência da sua ${order(d, "encomenda")} expirou sem pagamento. Emitimos uma nova referência: use apenas esta.`,
      "refpay-payment-details-changed": (d) =>
        `O valor da sua ${order(d, "encomenda")} foi alterado. Emitimos uma nova referência com o novo montante: use apenas esta.`,
    },
    labels: {
      entity: "Entidade",
      reference: "Referência",
      amount: "Montante",
      deadline: "Data limite",
      expiredRef: "Referência expirada (não pague)",
      replacedRef: "Referência anterior, cancelada (não pague)",
    },
    howToPay:
      "Pagamentos > Pagamentos de serviços/compras, com a entidade, a referência e o montante exatamente como indicados.",
    orderAgain: (url) =>
      url
        ? `Se ainda quiser os artigos, faça uma nova encomenda em ${url}.`
        : "Se ainda quiser os artigos, faça uma nova encomenda na loja.",
    cancelledNoPay: "Não pague a referência antiga: já não é válida.",
    paymentLink: "Veja este pagamento e o seu estado em",
  },
  en: {
    subject: {
      "refpay-payment-instructions": (d) => `How to pay for ${order(d, "your order")}`,
      "refpay-payment-reminder": (d) => `Reminder: payment for ${order(d, "your order")}`,
      "refpay-reference-expired": (d) =>
        d.outcome === "cancelled"
          ? `${capital(order(d, "your order"))} was cancelled: not paid`
          : `New payment reference for ${order(d, "your order")}`,
      "refpay-payment-details-changed": (d) => `New payment details for ${order(d, "your order")}`,
    },
    intro: {
      "refpay-payment-instructions": (d) =>
        `Thank you for ${order(d, "your order")}. Pay at an ATM (Multibanco), in online banking or in your bank's app with the details below.`,
      "refpay-payment-reminder": (d) =>
        `The reference for ${order(d, "your order")} has not been paid yet and expires soon.`,
      "refpay-reference-expired": (d) =>
        d.outcome === "cancelled"
          ? `The reference for ${order(d, "your order")} expired unpaid and the order was cancelled.`
          : `The reference for ${order(d, "your order")} expired unpaid. Here is a new reference: use only this one.`,
      "refpay-payment-details-changed": (d) =>
        `The total of ${order(d, "your order")} changed. Here is a new reference for the new amount: use only this one.`,
    },
    labels: {
      entity: "Entity",
      reference: "Reference",
      amount: "Amount",
      deadline: "Pay by",
      expiredRef: "Expired reference (do not pay)",
      replacedRef: "Previous reference, cancelled (do not pay)",
    },
    howToPay: "Payments > Services/purchases, with the entity, reference and amount exactly as shown.",
    orderAgain: (url) =>
      url
        ? `If you still want the items, please order again at ${url}.`
        : "If you still want the items, please order again in our shop.",
    cancelledNoPay: "Do not pay the old reference: it is no longer valid.",
    paymentLink: "See this payment and its status at",
  },
}

/** Euros from the platform's cents: "24,98 €" in Portuguese, "€24.98" in English. */
export function formatEmailAmount(cents: number, locale: RefpayEmailLocale): string {
  return new Intl.NumberFormat(locale === "pt" ? "pt-PT" : "en-IE", { style: "currency", currency: "EUR" }).format(
    cents / 100
  )
}

/** The deadline in Lisbon time, e.g. "30/11/2026, 14:05 (hora de Lisboa)". */
export function formatEmailDeadline(iso: string, locale: RefpayEmailLocale): string {
  const time = Date.parse(iso)
  if (!Number.isFinite(time)) return iso
  const formatted = new Intl.DateTimeFormat(locale === "pt" ? "pt-PT" : "en-GB", {
    timeZone: "Europe/Lisbon",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(time))
  return `${formatted} (${locale === "pt" ? "hora de Lisboa" : "Lisbon time"})`
}

export function renderRefpayEmail(
  template: RefpayEmailTemplate,
  data: RefpayEmailData,
  locale: RefpayEmailLocale = "pt",
  options: RefpayEmailOptions = {}
): RenderedEmail {
  const t = TEXTS[locale] ?? TEXTS.pt
  const rows: [string, string][] = []
  const cancelled = template === "refpay-reference-expired" && data.outcome === "cancelled"
  if (!cancelled && data.entity !== undefined && data.reference !== undefined && data.amount_cents !== undefined) {
    rows.push(
      [t.labels.entity, data.entity],
      [t.labels.reference, data.reference],
      [t.labels.amount, formatEmailAmount(data.amount_cents, locale)]
    )
    if (data.expires_at) rows.push([t.labels.deadline, formatEmailDeadline(data.expires_at, locale)])
  }
  const old = oldReference(template, data, t)
  const footer = cancelled ? [t.cancelledNoPay, t.orderAgain(data.order_again_url)] : [t.howToPay]
  const link = paymentLinkUrl(data, options)
  const subject = t.subject[template](data)
  const intro = t.intro[template](data)

  const text = [
    intro,
    "",
    ...rows.map(([label, value]) => `${label}: ${value}`),
    ...(old ? ["", `${old.label}: ${old.entity} / ${old.reference}`] : []),
    "",
    ...footer,
    ...(link ? ["", `${t.paymentLink} ${link}`] : []),
    ...(data.shop_name ? ["", data.shop_name] : []),
  ].join("\n")

  const html = [
    `<!doctype html><html lang="${locale}"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937">`,
    `<p>${escapeHtml(intro)}</p>`,
    rows.length
      ? `<table role="presentation" style="border-collapse:collapse">${rows
          .map(
            ([label, value]) =>
              `<tr><td style="padding:4px 16px 4px 0">${escapeHtml(label)}</td><td style="padding:4px 0;font-family:monospace;font-size:16px"><strong>${escapeHtml(value)}</strong></td></tr>`
          )
          .join("")}</table>`
      : "",
    old
      ? `<p style="color:#6b7280">${escapeHtml(old.label)}: <s>${escapeHtml(old.entity)} / ${escapeHtml(old.reference)}</s></p>`
      : "",
    ...footer.map((line) => `<p>${escapeHtml(line)}</p>`),
    link ? `<p>${escapeHtml(t.paymentLink)} <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : "",
    data.shop_name ? `<p>${escapeHtml(data.shop_name)}</p>` : "",
    "</body></html>",
  ].join("")

  return { subject, html, text }
}

/** The reference the customer must no longer pay (an expired one, or one an edit of the order replaced). */
function oldReference(template: RefpayEmailTemplate, data: RefpayEmailData, t: Texts) {
  if (template === "refpay-reference-expired" && data.expired_reference)
    return { ...data.expired_reference, label: t.labels.expiredRef }
  if (template === "refpay-payment-details-changed" && data.replaced_reference)
    return { ...data.replaced_reference, label: t.labels.replacedRef }
  return null
}

/** `<storefront>/payment-collection/<id>` for a requested reference, when the shop said where its storefront is. */
function paymentLinkUrl(data: RefpayEmailData, options: RefpayEmailOptions): string | null {
  const base = options.storefrontUrl?.trim().replace(/\/+$/, "")
  if (!base || !data.payment_collection_id) return null
  return `${base}/payment-collection/${encodeURIComponent(data.payment_collection_id)}`
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)
}

import type { RefpayPaymentStatus } from "./types.js"

export type RefpayLocale = "pt" | "en"

/** Every sentence the components show, in European Portuguese (the default) and English. */
export interface RefpayTexts {
  heading: string
  entity: string
  reference: string
  amount: string
  expiry: string
  copy: (what: string) => string
  copied: string
  copyByHand: string
  loading: string
  error: string
  hint: string
  statusPrefix: string
  expired: string
  renewed: string
  cancelledExpired: string
  cancelledUnpaid: string
  paidAfterCancellation: string
  status: Record<RefpayPaymentStatus, string>
  outstanding: {
    heading: string
    due: string
    paid: string
    request: string
    requesting: string
    requestFailed: string
    error: string
  }
  link: {
    heading: string
    notFound: string
    nothingDue: string
    unavailable: string
    paidElsewhere: string
  }
}

const pt: RefpayTexts = {
  heading: "Pagamento por Referência Multibanco",
  entity: "Entidade",
  reference: "Referência",
  amount: "Montante",
  expiry: "Data limite",
  copy: (what) => `Copiar ${what.toLowerCase()}`,
  copied: "Copiado!",
  copyByHand: "Copie à mão",
  loading: "A carregar os dados de pagamento…",
  error: "Não foi possível obter os dados de pagamento",
  hint: "Pague num Multibanco, no homebanking ou na app do seu banco (Pagamentos > Serviços). Esta página atualiza-se quando o pagamento for confirmado.",
  statusPrefix: "Estado",
  expired: "A referência expirou. A loja vai enviar-lhe uma nova referência ou contactá-lo.",
  renewed:
    "A referência anterior expirou sem pagamento. Enviámos-lhe uma nova referência por e-mail: pague apenas a referência abaixo.",
  cancelledExpired: "A referência expirou sem pagamento e a encomenda foi cancelada.",
  cancelledUnpaid: "A encomenda foi cancelada: não foi paga.",
  paidAfterCancellation: "O pagamento chegou depois de a encomenda ter sido cancelada. A loja vai contactá-lo.",
  status: { awaiting: "A aguardar pagamento", paid: "Pago", cancelled: "Cancelado", failed: "Pagamento falhou" },
  outstanding: {
    heading: "Valor adicional da encomenda",
    due: "Valor em falta",
    paid: "Valor pago",
    request: "Obter referência para pagamento",
    requesting: "A obter a referência…",
    requestFailed: "Não foi possível obter a referência",
    error: "Não foi possível verificar se há valores em falta",
  },
  link: {
    heading: "Pagamento da encomenda",
    notFound: "Este link de pagamento não existe ou já não é válido.",
    nothingDue: "Não há nada a pagar neste link.",
    unavailable: "Este montante não pode ser pago por Referência Multibanco. Contacte a loja.",
    paidElsewhere: "Este montante já foi pago.",
  },
}

const en: RefpayTexts = {
  heading: "Payment by Multibanco reference",
  entity: "Entity",
  reference: "Reference",
  amount: "Amount",
  expiry: "Pay by",
  copy: (what) => `Copy ${what.toLowerCase()}`,
  copied: "Copied!",
  copyByHand: "Copy by hand",
  loading: "Loading the payment details…",
  error: "Could not load the payment details",
  hint: "Pay at a Multibanco ATM, in online banking or in your bank's app (Payments > Services). This page updates when the payment is confirmed.",
  statusPrefix: "Status",
  expired: "The reference expired. The shop will send you a new reference or contact you.",
  renewed: "The previous reference expired unpaid. We e-mailed you a new reference: pay only the reference below.",
  cancelledExpired: "The reference expired unpaid and the order was cancelled.",
  cancelledUnpaid: "The order was cancelled: it was not paid.",
  paidAfterCancellation: "The payment arrived after the order was cancelled. The shop will contact you.",
  status: { awaiting: "Awaiting payment", paid: "Paid", cancelled: "Cancelled", failed: "Payment failed" },
  outstanding: {
    heading: "Additional amount on this order",
    due: "Amount due",
    paid: "Amount paid",
    request: "Get a payment reference",
    requesting: "Getting the reference…",
    requestFailed: "Could not get the reference",
    error: "Could not check for amounts due",
  },
  link: {
    heading: "Order payment",
    notFound: "This payment link does not exist or is no longer valid.",
    nothingDue: "Nothing is due on this link.",
    unavailable: "This amount cannot be paid by Multibanco reference. Please contact the shop.",
    paidElsewhere: "This amount has been paid.",
  },
}

export const REFPAY_TEXTS: Record<RefpayLocale, RefpayTexts> = { pt, en }

export function textsFor(locale: RefpayLocale | undefined): RefpayTexts {
  return REFPAY_TEXTS[locale ?? "pt"] ?? pt
}

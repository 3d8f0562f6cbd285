/**
 * The shop owner's numbers (issue: how many references get paid, how fast, what the plugin recovered, and a
 * reconciliation the accountant can take): the period they cover, the time-to-pay buckets and the accountant's CSV.
 * Pure: the SQL that counts lives in src/medusa-compat/medusa-tables/owner-numbers.ts.
 */

/** Days are Lisbon's calendar days: a reference issued at 23:30 UTC in summer was issued the next day in Portugal. */
export const SHOP_TIME_ZONE = "Europe/Lisbon"
/** The period the REFPAY page shows unless asked otherwise: the last 30 days, today included. */
export const DEFAULT_PERIOD_DAYS = 30
/** The longest period one request may cover (a year and a day: last year's same month included). */
export const MAX_PERIOD_DAYS = 367

/** A period of whole Lisbon days, both ends included (`YYYY-MM-DD`). */
export interface Period {
  from: string
  to: string
}

const DAY_MS = 86_400_000

/** A Lisbon calendar day (`YYYY-MM-DD`) of an instant. */
export function lisbonDay(at: Date): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: SHOP_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at)
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

/** The days from `from` to `to`, both included. */
export function daysOf(period: Period): string[] {
  const days: string[] = []
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) days.push(day)
  return days
}

/**
 * The period asked for, or the last DEFAULT_PERIOD_DAYS days up to today (Lisbon). A `to` before `from`, or a
 * period longer than MAX_PERIOD_DAYS, is refused with a message that says so.
 */
export function periodOf(asked: { from?: string; to?: string }, now: Date): Period | { error: string } {
  const to = asked.to ?? lisbonDay(now)
  const from = asked.from ?? addDays(to, -(DEFAULT_PERIOD_DAYS - 1))
  if (from > to) return { error: `the period's start (${from}) is after its end (${to})` }
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1
  if (days > MAX_PERIOD_DAYS) return { error: `a period covers at most ${MAX_PERIOD_DAYS} days (asked: ${days})` }
  return { from, to }
}

/** Time to pay, in Lisbon calendar days from issue to payment: 0 (the same day), 1, ..., 6, and 7 or more. */
export const TIME_TO_PAY_BUCKETS = ["0", "1", "2", "3", "4", "5", "6", "7+"] as const
export type TimeToPayBucket = (typeof TIME_TO_PAY_BUCKETS)[number]

export function timeToPayBucket(days: number): TimeToPayBucket {
  return days >= 7 ? "7+" : TIME_TO_PAY_BUCKETS[Math.max(0, Math.floor(days))]!
}

/** Euros with two decimals and a decimal comma, as Portuguese spreadsheets read them: 2498 -> "24,98". */
export function eurosForAccountant(cents: number): string {
  const sign = cents < 0 ? "-" : ""
  const abs = Math.abs(cents)
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, "0")}`
}

/** A date and time in Lisbon, `YYYY-MM-DD HH:MM`, as a spreadsheet reads it; empty when there is none. */
export function lisbonDateTime(at: Date | null): string {
  if (!at) return ""
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: SHOP_TIME_ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value])
  )
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`
}

/** Where a reference stands on Medusa's side: its session and what its payment holds. */
export type MedusaPaymentState =
  "waiting" | "paid" | "partially_refunded" | "refunded" | "expired" | "cancelled" | "other"

export function medusaPaymentState(payment: {
  session_status: string
  expired: boolean
  captured_cents: number
  refunded_cents: number
}): MedusaPaymentState {
  if (payment.captured_cents > 0) {
    if (payment.refunded_cents >= payment.captured_cents) return "refunded"
    return payment.refunded_cents > 0 ? "partially_refunded" : "paid"
  }
  if (payment.expired) return "expired"
  const bySession: Record<string, MedusaPaymentState> = { pending_authorization: "waiting", canceled: "cancelled" }
  return bySession[payment.session_status] ?? "other"
}

/** The states in the accountant's language. */
const STATE_IN_PORTUGUESE = {
  waiting: "a aguardar pagamento",
  paid: "pago",
  partially_refunded: "parcialmente reembolsado",
  refunded: "reembolsado",
  expired: "expirada",
  cancelled: "cancelada",
  other: "outro",
} satisfies Record<MedusaPaymentState, string>

/** One REFPAY payment of the period, as the CSV export lists it. */
export interface PeriodPayment {
  order_display_id: number | null
  order_id: string | null
  entity: string
  reference: string
  amount_cents: number
  captured_cents: number
  refunded_cents: number
  platform_status: string
  platform_amount_cents: number | null
  platform_refunded_cents: number
  medusa_state: MedusaPaymentState
  issued_at: Date | null
  paid_at: Date | null
}

/**
 * Who wrote a column's cells: the plugin (numbers, dates and states it computes; the default) or the platform (text
 * exactly as the platform returned it, which `platformTextField` neutralises).
 */
type CellSource = "plugin" | "platform"

/** The CSV's columns, in Portuguese like the accountant's spreadsheet, how each is written and who wrote it. */
const CSV_COLUMNS: [string, (row: PeriodPayment) => string, CellSource?][] = [
  ["Encomenda", (r) => (r.order_display_id === null ? "" : String(r.order_display_id))],
  ["Entidade", (r) => r.entity, "platform"],
  ["Referência", (r) => referenceText(r.reference), "platform"],
  ["Valor (EUR)", (r) => eurosForAccountant(r.amount_cents)],
  ["Capturado no Medusa (EUR)", (r) => eurosForAccountant(r.captured_cents)],
  ["Reembolsado no Medusa (EUR)", (r) => eurosForAccountant(r.refunded_cents)],
  ["Estado no Medusa", (r) => STATE_IN_PORTUGUESE[r.medusa_state]],
  [
    "Valor aprovado na plataforma (EUR)",
    (r) => (r.platform_amount_cents === null ? "" : eurosForAccountant(r.platform_amount_cents)),
  ],
  ["Reembolsado na plataforma (EUR)", (r) => eurosForAccountant(r.platform_refunded_cents)],
  ["Estado na plataforma", (r) => r.platform_status, "platform"],
  ["Emitida em (Lisboa)", (r) => lisbonDateTime(r.issued_at)],
  ["Paga em (Lisboa)", (r) => lisbonDateTime(r.paid_at)],
]

/** A field between quotes when it holds the separator, a quote or a line break (RFC 4180, with `;`). */
function csvField(value: string): string {
  return /[";\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

/** How a cell a spreadsheet reads as a formula starts (OWASP's CSV injection): =, +, -, @, a tab, a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * A cell of text the platform returned (entity, reference, status), written so that a spreadsheet never runs it: one
 * that would start a formula gets a single quote before it and is quoted, as OWASP advises; any other is an ordinary
 * field. Only text from outside is neutralised: the amounts the plugin computes are written bare, so that a negative
 * one ("-19,99") stays a number the accountant can sum, and they can hold nothing but a sign, digits and a comma.
 */
function platformTextField(value: string): string {
  return FORMULA_START.test(value) ? `"'${value.replace(/"/g, '""')}"` : csvField(value)
}

/**
 * A reference as ATMs and payment slips print it, in groups of three digits ("000 123 450"): a spreadsheet keeps it
 * as text, so its leading zeros stay (written bare, "000123450" would become the number 123450). Anything else is
 * written exactly as the platform returned it.
 */
export function referenceText(reference: string): string {
  return /^\d{9}$/.test(reference) ? reference.replace(/(\d{3})(?=\d)/g, "$1 ") : reference
}

/**
 * The payments of the period as a CSV a Portuguese accountant's spreadsheet opens as it is: UTF-8 with a byte order
 * mark (so "Referência" keeps its accent), `;` between fields and a decimal comma (the Portuguese list and decimal
 * separators), CRLF line ends, dates and times in Lisbon, references as slips print them (`referenceText`), and the
 * platform's text never read as a formula (`platformTextField`).
 */
export function periodPaymentsCsv(rows: PeriodPayment[]): string {
  const lines = [CSV_COLUMNS.map(([title]) => csvField(title)).join(";")]
  for (const row of rows) {
    lines.push(
      CSV_COLUMNS.map(([, field, source]) =>
        source === "platform" ? platformTextField(field(row)) : csvField(field(row))
      ).join(";")
    )
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`
}

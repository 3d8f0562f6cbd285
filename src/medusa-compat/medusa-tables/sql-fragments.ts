/**
 * Pieces of SQL over Medusa's payment tables, aliased `ps` (payment_session) and `pay` (payment), shared by the admin
 * page's queries, the owner's numbers and the payment checks' copies of them (reference-copies.ts).
 * Plain strings: nothing here imports Medusa.
 */

/** An ISO 8601 timestamp inside `data`, as timestamptz; null when the text is not one (never a cast error). */
export function timestampAt(path: string): string {
  const text = `(ps.data #>> '{${path}}')`
  // No "?" in the pattern: knex would take it for a binding.
  return `(case when ${text} ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+){0,1}){0,1}(Z|[+-]\\d{2}(:{0,1}\\d{2}){0,1})$' then ${text}::timestamptz end)`
}

/** A whole number at `path` inside a JSONB column; null when absent or not a number (never a cast error). */
export function numberAt(column: string, path: string): string {
  return `(case when jsonb_typeof(${column} #> '{${path}}') = 'number' then (${column} #>> '{${path}}')::numeric end)`
}

/**
 * The session's Payment and what Medusa holds of it in cents, exactly as `paymentCents` (rules/money.ts) computes it:
 * each capture and refund from its stored exact amount (`raw_amount.value`), rounded half away from zero to the cent
 * (PostgreSQL's `round(numeric)`), then summed.
 */
export const PAYMENT_MONEY = `
  cross join lateral (
    select coalesce((select sum(round(coalesce((c.raw_amount->>'value')::numeric, c.amount) * 100)) from capture c
                      where c.payment_id = pay.id and c.deleted_at is null), 0)::bigint as captured_cents,
           coalesce((select sum(round(coalesce((r.raw_amount->>'value')::numeric, r.amount) * 100)) from refund r
                      where r.payment_id = pay.id and r.deleted_at is null), 0)::bigint as refunded_cents
  ) money`

/**
 * The platform's refunded total as the plugin last read it, in cents: the sync writes it in the session's data,
 * the provider in the payment's data after its own calls. Refunds only grow on the platform, so the larger of the
 * two is the latest; 0 when neither says.
 */
export const PLATFORM_REFUNDED_CENTS = `coalesce(greatest(${numberAt("ps.data", "refpay,refunded_cents")}, ${numberAt("pay.data", "refpay,refunded_cents")}), 0)`

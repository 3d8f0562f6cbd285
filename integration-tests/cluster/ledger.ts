// What Medusa recorded, read straight from the shop's PostgreSQL (one query, whatever server wrote it): per order,
// its REFPAY session, payments, captures and refunds. And the verdict the cluster suites assert: every paid
// reference captured exactly once (none lost, none doubled).
import { Client } from "pg"
import type { PlatformPayment } from "./platform"

export interface OrderLedgerRow {
  order_id: string
  order_status: string
  cart_id: string | null
  collection_status: string
  amount: number
  captured_amount: number
  refunded_amount: number
  session_id: string | null
  session_status: string | null
  refpay_payment_id: string | null
  reference: string | null
  /** Payment records of the collection (Medusa creates one when the payment is authorised). */
  payments: number
  captures: number
  refunds: number
  /** When the (last) capture was recorded. */
  captured_at: Date | null
}

export interface SessionRow {
  session_id: string
  session_status: string
  refpay_payment_id: string | null
  cart_id: string | null
  order_id: string | null
}

export class Ledger {
  private constructor(private readonly client: Client) {}

  static async connect(databaseUrl: string): Promise<Ledger> {
    const client = new Client({ connectionString: databaseUrl })
    await client.connect()
    return new Ledger(client)
  }

  close(): Promise<void> {
    return this.client.end()
  }

  /** The plugin's record of a session's last check (the sync's last step): when, and what it found. */
  async lastCheck(sessionId: string): Promise<{ last_checked_at: Date | null; last_outcome: string | null } | null> {
    const { rows } = await this.client.query(
      `SELECT last_checked_at, last_outcome FROM refpay_payment_check WHERE session_id = $1 AND deleted_at IS NULL`,
      [sessionId]
    )
    return rows[0] ?? null
  }

  async orders(orderIds?: string[]): Promise<OrderLedgerRow[]> {
    const { rows } = await this.client.query(
      `SELECT o.id AS order_id, o.status AS order_status, oc.cart_id,
              pc.status AS collection_status, pc.amount::float AS amount,
              COALESCE(pc.captured_amount, 0)::float AS captured_amount, COALESCE(pc.refunded_amount, 0)::float AS refunded_amount,
              ps.id AS session_id, ps.status AS session_status,
              ps.data->'refpay'->>'payment_id' AS refpay_payment_id, ps.data->'refpay'->>'reference' AS reference,
              (SELECT count(*) FROM payment p WHERE p.payment_collection_id = pc.id AND p.deleted_at IS NULL)::int AS payments,
              (SELECT count(*) FROM capture c JOIN payment p ON p.id = c.payment_id
                 WHERE p.payment_collection_id = pc.id AND c.deleted_at IS NULL)::int AS captures,
              (SELECT count(*) FROM refund r JOIN payment p ON p.id = r.payment_id
                 WHERE p.payment_collection_id = pc.id AND r.deleted_at IS NULL)::int AS refunds,
              (SELECT max(c.created_at) FROM capture c JOIN payment p ON p.id = c.payment_id
                 WHERE p.payment_collection_id = pc.id AND c.deleted_at IS NULL) AS captured_at
         FROM "order" o
         JOIN order_payment_collection opc ON opc.order_id = o.id AND opc.deleted_at IS NULL
         JOIN payment_collection pc ON pc.id = opc.payment_collection_id
         LEFT JOIN order_cart oc ON oc.order_id = o.id AND oc.deleted_at IS NULL
         LEFT JOIN payment_session ps ON ps.payment_collection_id = pc.id AND ps.provider_id = 'pp_refpay_refpay' AND ps.deleted_at IS NULL
        WHERE o.deleted_at IS NULL AND ($1::text[] IS NULL OR o.id = ANY($1::text[]))
        ORDER BY o.created_at`,
      [orderIds ?? null]
    )
    return rows as OrderLedgerRow[]
  }

  /** Every REFPAY session of the given carts, with the order its cart became (if any). */
  async sessionsOfCarts(cartIds: string[]): Promise<SessionRow[]> {
    const { rows } = await this.client.query(
      `SELECT ps.id AS session_id, ps.status AS session_status, ps.data->'refpay'->>'payment_id' AS refpay_payment_id,
              cpc.cart_id, oc.order_id
         FROM payment_session ps
         JOIN cart_payment_collection cpc ON cpc.payment_collection_id = ps.payment_collection_id AND cpc.deleted_at IS NULL
         LEFT JOIN order_cart oc ON oc.cart_id = cpc.cart_id AND oc.deleted_at IS NULL
        WHERE ps.provider_id = 'pp_refpay_refpay' AND cpc.cart_id = ANY($1::text[])`,
      [cartIds]
    )
    return rows as SessionRow[]
  }

  /** Orders created from these carts (a cart completed twice would show twice). */
  async ordersOfCarts(cartIds: string[]): Promise<{ cart_id: string; order_id: string }[]> {
    const { rows } = await this.client.query(
      `SELECT oc.cart_id, oc.order_id FROM order_cart oc JOIN "order" o ON o.id = oc.order_id
        WHERE oc.deleted_at IS NULL AND o.deleted_at IS NULL AND oc.cart_id = ANY($1::text[])`,
      [cartIds]
    )
    return rows
  }
}

export interface CaptureVerdict {
  orders: number
  captured_once: number
  /** Paid on the platform, not captured in Medusa. */
  lost: string[]
  /** More than one payment or capture, or more captured than the order's amount. */
  doubled: string[]
  /** Refunds recorded although nobody refunded anything. */
  refunded: string[]
}

/** Every order whose reference the platform has as paid must be captured exactly once, for its amount. */
export function captureVerdict(rows: OrderLedgerRow[], platform: PlatformPayment[]): CaptureVerdict {
  const paid = new Set(platform.filter((p) => p.status === "APPROVED").map((p) => p.payment_id))
  const verdict: CaptureVerdict = { orders: rows.length, captured_once: 0, lost: [], doubled: [], refunded: [] }
  const seen = new Map<string, number>()
  for (const row of rows) seen.set(row.order_id, (seen.get(row.order_id) ?? 0) + 1)
  for (const row of rows) {
    const label = `${row.order_id} (${row.reference ?? "no reference"}, payments ${row.payments}, captures ${row.captures}, captured ${row.captured_amount}/${row.amount})`
    if (row.payments > 1 || row.captures > 1 || row.captured_amount > row.amount || (seen.get(row.order_id) ?? 0) > 1)
      verdict.doubled.push(label)
    else if (row.refpay_payment_id && paid.has(row.refpay_payment_id) && row.captures === 0) verdict.lost.push(label)
    else if (row.captures === 1 && row.captured_amount === row.amount) verdict.captured_once++
    if (row.refunds > 0 || row.refunded_amount > 0) verdict.refunded.push(label)
  }
  return verdict
}

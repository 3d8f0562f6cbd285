import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { VERIFIED_ON, type MedusaReliance } from "../reliance"

/**
 * The one place where the plugin reads Medusa's own tables with SQL: this folder. Why not through the query graph
 * or the modules' services: the admin page's lists, the owner's numbers and the poll job's scans ask questions the
 * graph cannot (rows of one module that another has none of, sums over captures and refunds per session, a month of
 * 100,000 references) within the bench's budgets (docs/performance.md), and the payment checks keep copies of a
 * reference's figures so that those reads touch one narrow table of the plugin's own. Nothing outside this folder
 * names a Medusa table; the REFPAY module's service reads and writes only its own tables.
 *
 * Reliance on Medusa: its tables keep these columns. They are the payment and order modules' storage, not an API.
 */
const TABLE_COLUMNS: Record<string, string[]> = {
  payment_session: [
    "id",
    "provider_id",
    "data",
    "status",
    "payment_collection_id",
    "created_at",
    "updated_at",
    "deleted_at",
  ],
  payment: ["id", "payment_session_id", "captured_at", "data", "deleted_at"],
  capture: ["payment_id", "raw_amount", "amount", "deleted_at"],
  refund: ["payment_id", "raw_amount", "amount", "deleted_at"],
  order_payment_collection: ["order_id", "payment_collection_id", "deleted_at"],
  order: ["id", "display_id", "status", "is_draft_order", "deleted_at"],
}

export const medusaTablesReliance: MedusaReliance = {
  name: "medusa-tables",
  behaviour:
    "Medusa's payment, order and link tables keep the columns the plugin's SQL reads (the admin page's lists, the " +
    "owner's numbers, the poll job's scans, the copies on the payment checks).",
  upstream: "the payment and order modules' migrations; the order-payment_collection link (link-modules)",
  verified: VERIFIED_ON,
  usedBy: ["src/medusa-compat/medusa-tables/*.ts"],
  async check(container) {
    const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const { rows } = await pg.raw(
      `select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and table_name = any(?)`,
      [Object.keys(TABLE_COLUMNS)]
    )
    const present = new Set(
      (rows as { table_name: string; column_name: string }[]).map((r) => `${r.table_name}.${r.column_name}`)
    )
    const missing = Object.entries(TABLE_COLUMNS).flatMap(([table, columns]) =>
      columns.filter((column) => !present.has(`${table}.${column}`)).map((column) => `${table}.${column}`)
    )
    if (missing.length) throw new Error(`missing columns: ${missing.join(", ")}`)
  },
}

import { Migration } from "@medusajs/framework/mikro-orm/migrations"
import { referenceCopiesUpdate } from "../../../medusa-compat/medusa-tables/reference-copies"

const COLUMNS = [
  `"issued_at" timestamptz null`,
  `"issued_day" date null`,
  `"amount_cents" integer null`,
  `"session_status" text null`,
  `"expired_at" timestamptz null`,
  `"paid_at" timestamptz null`,
  `"paid_day" date null`,
  `"late_at" timestamptz null`,
  `"renewed" boolean not null default false`,
  `"on_renewed_reference" boolean not null default false`,
  `"captured_cents" integer not null default 0`,
  `"refunded_cents" integer not null default 0`,
  `"platform_amount_cents" integer null`,
  `"platform_refunded_cents" integer not null default 0`,
  `"differs" boolean not null default false`,
  `"payment_collection_id" text null`,
]
const INDEXED = ["issued_day", "paid_day", "late_at"]

/**
 * What the owner's numbers count a reference by, copied onto its payment check (medusa-compat/medusa-tables/reference-copies.ts), with the
 * days and instant a period selects by indexed per registration; filled in for the checks that exist.
 */
export class Migration20261126170000 extends Migration {
  override async up(): Promise<void> {
    for (const column of COLUMNS)
      this.addSql(`alter table if exists "refpay_payment_check" add column if not exists ${column};`)
    for (const column of INDEXED)
      this.addSql(
        `CREATE INDEX IF NOT EXISTS "IDX_refpay_payment_check_provider_id_${column}" ON "refpay_payment_check" ("provider_id", "${column}") WHERE ${column} IS NOT NULL AND deleted_at IS NULL;`
      )
    // The reconciliation's differences: few, found without reading the period's other payments.
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_payment_check_provider_id_paid_day_differs" ON "refpay_payment_check" ("provider_id", "paid_day") WHERE differs AND deleted_at IS NULL;`
    )
    // What the plugin recovered: the payments after a reminder or on a renewed reference, a few of the period's.
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_payment_check_provider_id_paid_day_recovered" ON "refpay_payment_check" ("provider_id", "paid_day") WHERE (reminded_at IS NOT NULL OR on_renewed_reference) AND deleted_at IS NULL;`
    )
    // A collection's expired references, refreshed when a new reference there is checked.
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_payment_check_payment_collection_id_expired" ON "refpay_payment_check" ("payment_collection_id") WHERE expired_at IS NOT NULL AND deleted_at IS NULL;`
    )
    // Medusa may run this before the payment module's migrations (`db:migrate` on a new database): there is no
    // session then, and no check to fill in either.
    this.addSql(
      `do $$ begin
         if to_regclass('payment_session') is not null then
           ${referenceCopiesUpdate("true", ["reference", "order_id"])};
         end if;
       end $$;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_refpay_payment_check_payment_collection_id_expired";`)
    for (const index of ["differs", "recovered"])
      this.addSql(`drop index if exists "IDX_refpay_payment_check_provider_id_paid_day_${index}";`)
    for (const column of INDEXED) this.addSql(`drop index if exists "IDX_refpay_payment_check_provider_id_${column}";`)
    for (const column of COLUMNS)
      this.addSql(`alter table if exists "refpay_payment_check" drop column if exists ${column.split(" ")[0]};`)
  }
}

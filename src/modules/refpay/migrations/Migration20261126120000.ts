import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** When the reminder of a payment check's reference was sent (the poll tick's batched unchanged checks read it). */
export class Migration20261126120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "refpay_payment_check" add column if not exists "reminded_at" timestamptz null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "refpay_payment_check" drop column if exists "reminded_at";`)
  }
}

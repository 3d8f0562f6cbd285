import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Refused webhook deliveries counted per REFPAY registration too (a shop may have several accounts). */
export class Migration20261123140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "refpay_webhook_refusal" add column if not exists "provider_id" text not null default '';`
    )
    this.addSql(`drop index if exists "IDX_refpay_webhook_refusal_door_reason_unique";`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_refpay_webhook_refusal_door_reason_provider_id_unique" ON "refpay_webhook_refusal" ("door", "reason", "provider_id") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_refpay_webhook_refusal_door_reason_provider_id_unique";`)
    this.addSql(`delete from "refpay_webhook_refusal" where "provider_id" <> '';`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_refpay_webhook_refusal_door_reason_unique" ON "refpay_webhook_refusal" ("door", "reason") WHERE deleted_at IS NULL;`
    )
    this.addSql(`alter table if exists "refpay_webhook_refusal" drop column if exists "provider_id";`)
  }
}

import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Authentic webhook deliveries that were not usable REFPAY events, counted per door, registration and reason. */
export class Migration20261125090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "refpay_webhook_malformed" ("id" text not null, "door" text check ("door" in ('medusa', 'refpay')) not null, "provider_id" text not null default '', "reason" text not null, "received_count" integer not null default 0, "first_received_at" timestamptz not null, "last_received_at" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "refpay_webhook_malformed_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_refpay_webhook_malformed_door_reason_provider_id_unique" ON "refpay_webhook_malformed" ("door", "reason", "provider_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_webhook_malformed_deleted_at" ON "refpay_webhook_malformed" ("deleted_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "refpay_webhook_malformed" cascade;`)
  }
}

import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261121120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "refpay_webhook_event" ("id" text not null, "event_key" text not null, "event_type" text not null, "payment_id" text not null, "order_id" text null, "door" text check ("door" in ('medusa', 'refpay')) not null, "deliveries" integer not null default 1, "processed_at" timestamptz null, "outcome" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "refpay_webhook_event_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_refpay_webhook_event_event_key_unique" ON "refpay_webhook_event" ("event_key") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_webhook_event_payment_id" ON "refpay_webhook_event" ("payment_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_webhook_event_deleted_at" ON "refpay_webhook_event" ("deleted_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "refpay_webhook_event" cascade;`)
  }
}

import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** Refused webhook deliveries (wrong or missing secret), counted per door and reason. */
export class Migration20261123120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "refpay_webhook_refusal" ("id" text not null, "door" text check ("door" in ('medusa', 'refpay')) not null, "reason" text check ("reason" in ('missing_secret', 'wrong_secret', 'no_secret_configured')) not null, "refused_count" integer not null default 0, "first_refused_at" timestamptz not null, "last_refused_at" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "refpay_webhook_refusal_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_refpay_webhook_refusal_door_reason_unique" ON "refpay_webhook_refusal" ("door", "reason") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_webhook_refusal_deleted_at" ON "refpay_webhook_refusal" ("deleted_at") WHERE deleted_at IS NULL;`
    )
    // The admin page lists the latest deliveries first.
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_webhook_event_created_at" ON "refpay_webhook_event" ("created_at") WHERE deleted_at IS NULL;`
    )
    // The attention lists read checks by their last outcome.
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_payment_check_last_outcome" ON "refpay_payment_check" ("last_outcome") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_refpay_payment_check_last_outcome";`)
    this.addSql(`drop index if exists "IDX_refpay_webhook_event_created_at";`)
    this.addSql(`drop table if exists "refpay_webhook_refusal" cascade;`)
  }
}

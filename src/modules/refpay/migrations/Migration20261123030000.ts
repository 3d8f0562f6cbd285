import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123030000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "refpay_payment_check" ("id" text not null, "session_id" text not null, "provider_id" text not null, "watch_until" timestamptz null, "next_check_at" timestamptz not null, "last_checked_at" timestamptz null, "last_outcome" text null, "last_error" text null, "failures" integer not null default 0, "alerted_fact" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "refpay_payment_check_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_refpay_payment_check_session_id_unique" ON "refpay_payment_check" ("session_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_payment_check_next_check_at" ON "refpay_payment_check" ("next_check_at") WHERE watch_until IS NOT NULL AND deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_payment_check_deleted_at" ON "refpay_payment_check" ("deleted_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "refpay_payment_check" cascade;`)
  }
}

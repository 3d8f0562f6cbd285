import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * The plugin's tables, as of its first release: webhook events, payment checks, refused and unusable webhook
 * deliveries (each counted per door, reason and registration). Every statement is "if not exists", so a database
 * that ran the development migrations this one replaces is left as it is.
 */
export class Migration20261125120000 extends Migration {
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
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_webhook_event_created_at" ON "refpay_webhook_event" ("created_at") WHERE deleted_at IS NULL;`
    )
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
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_payment_check_last_outcome" ON "refpay_payment_check" ("last_outcome") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `create table if not exists "refpay_webhook_refusal" ("id" text not null, "door" text check ("door" in ('medusa', 'refpay')) not null, "provider_id" text not null default '', "reason" text check ("reason" in ('missing_secret', 'wrong_secret', 'no_secret_configured')) not null, "refused_count" integer not null default 0, "first_refused_at" timestamptz not null, "last_refused_at" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "refpay_webhook_refusal_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_webhook_refusal_deleted_at" ON "refpay_webhook_refusal" ("deleted_at") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_refpay_webhook_refusal_door_reason_provider_id_unique" ON "refpay_webhook_refusal" ("door", "reason", "provider_id") WHERE deleted_at IS NULL;`
    )
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
    this.addSql(`drop table if exists "refpay_webhook_refusal" cascade;`)
    this.addSql(`drop table if exists "refpay_payment_check" cascade;`)
    this.addSql(`drop table if exists "refpay_webhook_event" cascade;`)
  }
}

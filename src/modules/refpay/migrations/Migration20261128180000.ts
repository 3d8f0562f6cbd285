import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Plain names, one table for the deliveries the plugin did not take in:
 * - the column `door` (which webhook route a delivery came through) becomes `route`, renamed in place so every
 *   recorded event keeps its value;
 * - `refpay_webhook_refusal` and `refpay_webhook_malformed`, two tables of the same shape, become one,
 *   `refpay_webhook_rejection`, with `kind` = refused or malformed; their rows are copied (ids, counts and times
 *   kept), then the old tables dropped. `down` restores both tables with their rows.
 * Each step checks what is there first, so a database part-way through (or new) is brought to the same end.
 */
export class Migration20261128180000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(renameRouteColumn("door", "route"))
    this.addSql(
      `create table if not exists "refpay_webhook_rejection" ("id" text not null, "route" text check ("route" in ('medusa', 'refpay')) not null, "provider_id" text not null default '', "kind" text check ("kind" in ('refused', 'malformed')) not null, "reason" text not null, "delivery_count" integer not null default 0, "first_received_at" timestamptz not null, "last_received_at" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "refpay_webhook_rejection_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_refpay_webhook_rejection_key" ON "refpay_webhook_rejection" ("route", "kind", "reason", "provider_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_webhook_rejection_deleted_at" ON "refpay_webhook_rejection" ("deleted_at") WHERE deleted_at IS NULL;`
    )
    for (const old of OLD_TABLES) {
      this.addSql(`do $$ begin
        if to_regclass('${old.table}') is not null then
          insert into "refpay_webhook_rejection" ("id", "route", "provider_id", "kind", "reason", "delivery_count", "first_received_at", "last_received_at", "created_at", "updated_at", "deleted_at")
          select "id", "door", "provider_id", '${old.kind}', "reason", "${old.count}", "${old.first}", "${old.last}", "created_at", "updated_at", "deleted_at"
            from "${old.table}"
          on conflict do nothing;
          drop table "${old.table}" cascade;
        end if;
      end $$;`)
    }
  }

  override async down(): Promise<void> {
    for (const old of OLD_TABLES) {
      this.addSql(
        `create table if not exists "${old.table}" ("id" text not null, "door" text check ("door" in ('medusa', 'refpay')) not null, "provider_id" text not null default '', "reason" text${old.reasonCheck} not null, "${old.count}" integer not null default 0, "${old.first}" timestamptz not null, "${old.last}" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "${old.table}_pkey" primary key ("id"));`
      )
      this.addSql(
        `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_${old.table}_door_reason_provider_id_unique" ON "${old.table}" ("door", "reason", "provider_id") WHERE deleted_at IS NULL;`
      )
      this.addSql(
        `CREATE INDEX IF NOT EXISTS "IDX_${old.table}_deleted_at" ON "${old.table}" ("deleted_at") WHERE deleted_at IS NULL;`
      )
      this.addSql(`do $$ begin
        if to_regclass('refpay_webhook_rejection') is not null then
          insert into "${old.table}" ("id", "door", "provider_id", "reason", "${old.count}", "${old.first}", "${old.last}", "created_at", "updated_at", "deleted_at")
          select "id", "route", "provider_id", "reason", "delivery_count", "first_received_at", "last_received_at", "created_at", "updated_at", "deleted_at"
            from "refpay_webhook_rejection" where "kind" = '${old.kind}'
          on conflict do nothing;
        end if;
      end $$;`)
    }
    this.addSql(`drop table if exists "refpay_webhook_rejection" cascade;`)
    this.addSql(renameRouteColumn("route", "door"))
  }
}

/** Renames the webhook event's route column (and its check constraint) when the database still has the old name. */
function renameRouteColumn(from: string, to: string): string {
  return `do $$ begin
    if exists (select 1 from information_schema.columns
                where table_schema = current_schema() and table_name = 'refpay_webhook_event' and column_name = '${from}') then
      alter table "refpay_webhook_event" rename column "${from}" to "${to}";
      if exists (select 1 from pg_constraint where conname = 'refpay_webhook_event_${from}_check') then
        alter table "refpay_webhook_event" rename constraint "refpay_webhook_event_${from}_check" to "refpay_webhook_event_${to}_check";
      end if;
    end if;
  end $$;`
}

/** The two tables folded into refpay_webhook_rejection, with their own names for the count and the times. */
const OLD_TABLES = [
  {
    table: "refpay_webhook_refusal",
    kind: "refused",
    count: "refused_count",
    first: "first_refused_at",
    last: "last_refused_at",
    reasonCheck: ` check ("reason" in ('missing_secret', 'wrong_secret', 'no_secret_configured'))`,
  },
  {
    table: "refpay_webhook_malformed",
    kind: "malformed",
    count: "received_count",
    first: "first_received_at",
    last: "last_received_at",
    reasonCheck: "",
  },
] as const

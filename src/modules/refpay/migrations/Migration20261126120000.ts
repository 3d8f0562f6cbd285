import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Two columns of a payment check: when the reference's reminder was sent (the poll tick's batched unchanged checks
 * read it), and the reference's validity (the REFPAY page's "expiring" list reads it, indexed), filled in for the
 * checks that exist from their sessions' data (a value that is not an ISO timestamp stays null, never a cast error).
 */
export class Migration20261126120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "refpay_payment_check" add column if not exists "reminded_at" timestamptz null;`)
    this.addSql(`alter table if exists "refpay_payment_check" add column if not exists "expires_at" timestamptz null;`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_refpay_payment_check_expires_at" ON "refpay_payment_check" ("expires_at") WHERE watch_until IS NOT NULL AND deleted_at IS NULL;`
    )
    // Medusa may run this before the payment module's migrations (`db:migrate` on a new database): payment_session
    // does not exist then, and there is no check to fill in either.
    this.addSql(
      `do $$ begin
         if to_regclass('payment_session') is not null then
           update "refpay_payment_check" c set "expires_at" = (ps.data #>> '{refpay,expires_at}')::timestamptz
             from "payment_session" ps
            where ps.id = c.session_id and c.expires_at is null
              and (ps.data #>> '{refpay,expires_at}') ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+){0,1}){0,1}(Z|[+-]\\d{2}(:{0,1}\\d{2}){0,1})$';
         end if;
       end $$;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_refpay_payment_check_expires_at";`)
    this.addSql(`alter table if exists "refpay_payment_check" drop column if exists "expires_at";`)
    this.addSql(`alter table if exists "refpay_payment_check" drop column if exists "reminded_at";`)
  }
}

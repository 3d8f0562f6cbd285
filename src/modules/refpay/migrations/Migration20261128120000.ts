import { Migration } from "@medusajs/framework/mikro-orm/migrations"
import { referenceCopiesUpdate } from "../../../medusa-compat/medusa-tables/reference-copies"

/**
 * The plugin's own copy of each reference and its order on the reference's payment check (`reference`, `order_id`),
 * so a late payment of a reference whose session Medusa deleted is still found, flagged and refunded; filled in for
 * the checks that exist from their sessions.
 */
export class Migration20261128120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "refpay_payment_check" add column if not exists "reference" jsonb null;`)
    this.addSql(`alter table if exists "refpay_payment_check" add column if not exists "order_id" text null;`)
    // Medusa may run this before the payment and order modules' migrations (`db:migrate` on a new database): there
    // is no session then, and no check to fill in either.
    this.addSql(
      `do $$ begin
         if to_regclass('payment_session') is not null and to_regclass('order_payment_collection') is not null then
           ${referenceCopiesUpdate("true")};
         end if;
       end $$;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "refpay_payment_check" drop column if exists "order_id";`)
    this.addSql(`alter table if exists "refpay_payment_check" drop column if exists "reference";`)
  }
}

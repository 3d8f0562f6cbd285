import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Plain names for two columns of `refpay_payment_check`, renamed in place so every check keeps its value (and the
 * partial indexes on the first, which PostgreSQL rewrites with the column):
 * - `watch_until` (until when the poll job checks the reference) becomes `check_until`;
 * - `alerted_fact` (the last alert announced, e.g. "amount_mismatch:2499") becomes `last_alert`.
 * Each rename checks what is there first, so a database part-way through (or new) is brought to the same end.
 */
export class Migration20261129090000 extends Migration {
  override async up(): Promise<void> {
    for (const [from, to] of RENAMES) this.addSql(renameCheckColumn(from, to))
  }

  override async down(): Promise<void> {
    for (const [from, to] of RENAMES) this.addSql(renameCheckColumn(to, from))
  }
}

const RENAMES = [
  ["watch_until", "check_until"],
  ["alerted_fact", "last_alert"],
] as const

function renameCheckColumn(from: string, to: string): string {
  return `do $$ begin
    if exists (select 1 from information_schema.columns
                where table_schema = current_schema() and table_name = 'refpay_payment_check' and column_name = '${from}') then
      alter table "refpay_payment_check" rename column "${from}" to "${to}";
    end if;
  end $$;`
}

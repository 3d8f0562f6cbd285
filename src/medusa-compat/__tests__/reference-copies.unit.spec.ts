import { Migration20261126170000 } from "../../modules/refpay/migrations/Migration20261126170000"
import { Migration20261128120000 } from "../../modules/refpay/migrations/Migration20261128120000"
import { REFERENCE_COPIES, referenceCopiesUpdate, type ReferenceCopy } from "../medusa-tables/reference-copies"

type Up = { up(): Promise<void> }

async function statementsOf(Migration: { prototype: Up }): Promise<string[]> {
  const statements: string[] = []
  const migration = Object.create(Migration.prototype) as Up
  Object.assign(migration, { addSql: (sql: string) => statements.push(sql) })
  await migration.up()
  return statements
}

/** The migrations that add the copies' columns, in order, and the copies each one's fill leaves out (added later). */
const COPY_MIGRATIONS: [{ prototype: Up }, ReferenceCopy[]][] = [
  [Migration20261126170000, ["reference", "order_id"]],
  [Migration20261128120000, []],
]

async function migrationStatements(): Promise<string[]> {
  const all: string[] = []
  for (const [Migration] of COPY_MIGRATIONS) all.push(...(await statementsOf(Migration)))
  return all
}

describe("the payment checks' copies of what the owner's numbers count", () => {
  it("are columns the migration adds, every one of them, and no other", async () => {
    const added = (await migrationStatements())
      .map((sql) => /add column if not exists "(\w+)"/.exec(sql)?.[1])
      .filter((column): column is string => !!column)
    expect(added.sort()).toEqual(Object.keys(REFERENCE_COPIES).sort())
  })

  it("are written by one UPDATE that sets each of them from the session and its payment", () => {
    const sql = referenceCopiesUpdate("ps.id = ?")
    for (const column of Object.keys(REFERENCE_COPIES)) expect(sql).toContain(`"${column}" = f."${column}"`)
    expect(sql.match(/\?/g)).toHaveLength(1) // the caller's binding only: no "?" in the SQL pieces
  })

  it("are filled in for existing checks when each migration runs, once the payment tables exist, with only the columns that exist by then", async () => {
    for (const [Migration, later] of COPY_MIGRATIONS) {
      const fill = (await statementsOf(Migration)).find((sql) => sql.includes("update"))
      expect(fill).toContain("to_regclass('payment_session') is not null")
      expect(fill).toContain(referenceCopiesUpdate("true", later))
    }
  })
})

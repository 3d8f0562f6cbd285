import { Migration20261126170000 } from "../migrations/Migration20261126170000"
import { REFERENCE_FACTS, referenceFactsUpdate } from "../reference-facts"

async function migrationStatements(): Promise<string[]> {
  const statements: string[] = []
  const migration = Object.create(Migration20261126170000.prototype) as Migration20261126170000
  Object.assign(migration, { addSql: (sql: string) => statements.push(sql) })
  await migration.up()
  return statements
}

describe("the payment checks' copies of what the owner's numbers count", () => {
  it("are columns the migration adds, every one of them, and no other", async () => {
    const added = (await migrationStatements())
      .map((sql) => /add column if not exists "(\w+)"/.exec(sql)?.[1])
      .filter((column): column is string => !!column)
    expect(added.sort()).toEqual(Object.keys(REFERENCE_FACTS).sort())
  })

  it("are written by one UPDATE that sets each of them from the session and its payment", () => {
    const sql = referenceFactsUpdate("ps.id = ?")
    for (const column of Object.keys(REFERENCE_FACTS)) expect(sql).toContain(`"${column}" = f."${column}"`)
    expect(sql.match(/\?/g)).toHaveLength(1) // the caller's binding only: no "?" in the SQL pieces
  })

  it("are filled in for existing checks when the migration runs, once the payment tables exist", async () => {
    const fill = (await migrationStatements()).find((sql) => sql.includes("update"))
    expect(fill).toContain("to_regclass('payment_session') is not null")
    expect(fill).toContain(referenceFactsUpdate("true"))
  })
})

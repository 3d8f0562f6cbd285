import { randomUUID } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import type { Client } from "pg"

/**
 * Counts the SQL statements the Medusa app sends while `work` runs: PostgreSQL logs every statement
 * (`log_statement = all`, switched on for that window only, through ALTER SYSTEM on the throwaway server), and
 * the log between two markers is read back. Statements of the bench's own connection are left out. Unlike a
 * duration, a count does not change with how busy the machine is.
 */
export interface StatementCount {
  total: number
  byTable: Record<string, number>
  /** Every statement's text in the order sent, literals and parameters left out (see statementShape). */
  statements: string[]
}

/**
 * A statement's text without what changes from one run to the next (ids, quoted literals, numbers, parameter lists),
 * so two runs' lists compare line by line.
 */
export function statementShape(sql: string): string {
  return sql
    .replace(/'(?:[^']|'')*'/g, "'?'")
    .replace(/\$\d+/g, "$?")
    .replace(/\b\d+(?:\.\d+)?\b/g, "?")
    .replace(/(?:\$\?|'\?'|\?)(?:\s*,\s*(?:\$\?|'\?'|\?))+/g, "?...")
    .replace(/\s+/g, " ")
    .trim()
}

export async function countStatements(db: Client, logFile: string, work: () => Promise<void>): Promise<StatementCount> {
  const ownPid = (await db.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid
  const setLogging = async (on: boolean) => {
    await db.query(on ? "alter system set log_statement = 'all'" : "alter system reset log_statement")
    await db.query("select pg_reload_conf()")
    // Each backend applies a reload at its next command; give the pool's idle connections a moment.
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
  const marker = randomUUID()
  await setLogging(true)
  try {
    await db.query(`select 'bench-begin-${marker}'`)
    await work()
    await db.query(`select 'bench-end-${marker}'`)
  } finally {
    await setLogging(false)
  }
  // The log is appended by the process that started PostgreSQL (this one), from the server's stderr.
  await new Promise((resolve) => setTimeout(resolve, 200))
  const log = fs.readFileSync(logFile, "utf8")
  const start = log.indexOf(`bench-begin-${marker}`)
  const end = log.indexOf(`bench-end-${marker}`)
  if (start < 0 || end < 0) throw new Error(`statement markers not found in ${logFile}`)
  const byTable: Record<string, number> = {}
  const statements: string[] = []
  let total = 0
  const lines = log.slice(start, end).split("\n")
  for (let i = 0; i < lines.length; i++) {
    const match = lines[i]!.match(/\[(\d+)\][^:]*LOG:\s+(?:statement|execute [^:]*):\s+(.*)$/)
    if (!match || Number(match[1]) === ownPid) continue
    total++
    // A statement over several lines continues on lines the server starts with a tab.
    let sql = match[2]!
    while (lines[i + 1]?.startsWith("\t")) sql += ` ${lines[++i]!.trim()}`
    const table =
      sql.match(/\b(?:from|into|update)\s+"?([a-z_]+)"?/i)?.[1] ?? sql.split(/\s/)[0]!.replace(/;$/, "").toUpperCase()
    byTable[table] = (byTable[table] ?? 0) + 1
    statements.push(statementShape(sql))
  }
  return { total, byTable, statements }
}

/** Where the statement lists go: one file per counted piece of work, one statement a line. */
export const STATEMENT_LISTS_DIR = path.resolve(__dirname, "..", ".test-artifacts", "bench-sql")

/** Writes a count's statements to `.test-artifacts/bench-sql/<name>.txt`, so two runs can be diffed. */
export function writeStatementList(name: string, count: StatementCount): string {
  fs.mkdirSync(STATEMENT_LISTS_DIR, { recursive: true })
  const file = path.join(STATEMENT_LISTS_DIR, `${name}.txt`)
  fs.writeFileSync(file, count.statements.join("\n") + "\n")
  return file
}

import { randomUUID } from "node:crypto"
import fs from "node:fs"
import type { Client } from "pg"

/**
 * Counts the SQL statements the Medusa app sends while `work` runs: PostgreSQL logs every statement
 * (`log_statement = all`, switched on for that window only, through ALTER SYSTEM on the throwaway server), and
 * the log between two markers is read back. Statements of the bench's own connection are left out. Unlike a
 * duration, a count does not change with how busy the machine is.
 */
export async function countStatements(
  db: Client,
  logFile: string,
  work: () => Promise<void>
): Promise<{ total: number; byTable: Record<string, number> }> {
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
  let total = 0
  for (const line of log.slice(start, end).split("\n")) {
    const match = line.match(/\[(\d+)\][^:]*LOG:\s+(?:statement|execute [^:]*):\s+(.*)$/)
    if (!match || Number(match[1]) === ownPid) continue
    total++
    const sql = match[2]!
    const table =
      sql.match(/\b(?:from|into|update)\s+"?([a-z_]+)"?/i)?.[1] ?? sql.split(/\s/)[0]!.replace(/;$/, "").toUpperCase()
    byTable[table] = (byTable[table] ?? 0) + 1
  }
  return { total, byTable }
}

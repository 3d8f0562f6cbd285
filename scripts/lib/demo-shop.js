"use strict"
// The demo Medusa app in demo/: `medusa build` (cached by a hash of its inputs), the database, `medusa db:migrate`
// (again only when its inputs changed), the seed (once per database), and `medusa start` from the build output,
// which serves the prebuilt admin dashboard.

const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")
const { runCommand, startProcess, stopProcess, waitForHttp } = require("./demo-processes")

/** Every file under `dir` (skipping `skip` names), sorted, for hashing. */
function listFiles(dir, skip) {
  const out = []
  const visit = (entry) => {
    if (skip.has(path.basename(entry))) return
    const stat = fs.statSync(entry)
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry).sort()) visit(path.join(entry, name))
    else out.push(entry)
  }
  visit(dir)
  return out
}

/** What the build depends on: the demo's sources (not the storefront), the packed plugin, Medusa's version. */
function buildInputsHash({ root, demoDir, pluginSha256 }) {
  const hash = crypto.createHash("sha256")
  for (const file of listFiles(demoDir, new Set(["node_modules", ".medusa", "storefront"]))) {
    hash.update(path.relative(demoDir, file)).update("\0").update(fs.readFileSync(file)).update("\0")
  }
  const medusaVersion = JSON.parse(
    fs.readFileSync(require.resolve("@medusajs/medusa/package.json", { paths: [root] }), "utf8")
  ).version
  return hash.update(pluginSha256).update(medusaVersion).digest("hex")
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"))
  } catch {
    return null
  }
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`)
}

/** `medusa build` in demo/ unless demo/.medusa/server was built from the same inputs. Returns true if it built. */
async function buildShop({ demoDir, medusaCli, env, inputsHash, logFile, signal }) {
  const stampFile = path.join(demoDir, ".medusa", "refpay-demo-build.json")
  const stamp = readJson(stampFile)
  const serverDir = path.join(demoDir, ".medusa", "server")
  if (stamp?.inputs === inputsHash && fs.existsSync(path.join(serverDir, "public", "admin", "index.html"))) return false
  fs.rmSync(stampFile, { force: true })
  await runCommand("medusa build", process.execPath, [medusaCli, "build"], { cwd: demoDir, env, logFile, signal })
  if (!fs.existsSync(path.join(serverDir, "public", "admin", "index.html"))) {
    throw new Error(`medusa build finished without an admin build in ${serverDir}/public/admin (see ${logFile})`)
  }
  writeJson(stampFile, { inputs: inputsHash, built_at: new Date().toISOString() })
  return true
}

/**
 * Creates the demo database when it does not exist (pg comes with Medusa). Returns the server's system identifier,
 * new with every initdb, so state kept for an older data folder is never trusted.
 */
async function ensureDatabase({ root, postgres, database }) {
  const { Client } = require(require.resolve("pg", { paths: [root] }))
  const client = new Client({ connectionString: postgres.url("postgres") })
  await client.connect()
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database])
    if (rowCount === 0) await client.query(`CREATE DATABASE "${database}"`)
    const { rows } = await client.query("SELECT system_identifier::text AS id FROM pg_control_system()")
    return rows[0].id
  } finally {
    await client.end()
  }
}

/**
 * Creates database `to` as a copy of `from` (which nothing may be connected to): PostgreSQL copies its files, so a
 * second stack gets a migrated and seeded shop for a fraction of what `db:migrate` and the seed cost.
 */
async function copyDatabase({ root, postgres, from, to }) {
  const { Client } = require(require.resolve("pg", { paths: [root] }))
  const client = new Client({ connectionString: postgres.url("postgres") })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${to}"`)
    // The migrations' and the seed's connections may take a moment to end after their processes exit.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${to}" WITH TEMPLATE "${from}"`)
        return
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test(error.message)) throw error
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  } finally {
    await client.end()
  }
}

/**
 * Migrations and seed, each skipped when `state` (kept beside the database) says it was done with the same inputs.
 * Returns the seed's result: { region_id, publishable_key, sales_channel_id, admin_email }.
 */
async function prepareDatabase({ demoDir, medusaCli, env, inputsHash, databaseId, stateFile, logFile, log, signal }) {
  const kept = readJson(stateFile)
  const state = kept?.database_id === databaseId ? kept : { database_id: databaseId }
  if (state.migrated !== inputsHash) {
    log("running migrations (medusa db:migrate)...")
    await runCommand("medusa db:migrate", process.execPath, [medusaCli, "db:migrate"], {
      cwd: demoDir,
      env,
      logFile,
      signal,
    })
    state.migrated = inputsHash
    writeJson(stateFile, state)
  } else {
    log("database schema is up to date: skipping migrations")
  }
  if (!state.seed) {
    log("seeding the shop (medusa exec ./src/scripts/seed.ts)...")
    const seedFile = `${stateFile}.seed.tmp`
    fs.rmSync(seedFile, { force: true })
    await runCommand("seed", process.execPath, [medusaCli, "exec", "./src/scripts/seed.ts"], {
      cwd: demoDir,
      env: { ...env, REFPAY_DEMO_SEED_FILE: seedFile },
      logFile,
      signal,
    })
    state.seed = readJson(seedFile)
    fs.rmSync(seedFile, { force: true })
    if (!state.seed?.publishable_key) throw new Error(`The seed wrote no result (see ${logFile})`)
    writeJson(stateFile, state)
  } else {
    log("shop already seeded: skipping the seed")
  }
  return state.seed
}

/** `medusa start` from the build output; resolves once /health answers. */
async function startShop({ demoDir, medusaCli, env, port, logFile, signal }) {
  const serverDir = path.join(demoDir, ".medusa", "server")
  const child = startProcess(process.execPath, [medusaCli, "start", "--port", String(port), "--host", "127.0.0.1"], {
    cwd: serverDir,
    env: { ...env, NODE_ENV: "production" },
    logFile,
  })
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health`, {
      child,
      logFile,
      label: "Medusa",
      timeoutMs: 180_000,
      signal,
    })
  } catch (error) {
    await stopProcess(child, 5_000)
    throw error
  }
  return child
}

module.exports = { buildInputsHash, buildShop, copyDatabase, ensureDatabase, prepareDatabase, startShop }

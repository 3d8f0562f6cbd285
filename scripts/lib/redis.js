"use strict"
// A throwaway Redis on loopback for the multi-server set-ups (`npm run demo -- --servers 2`, `npm test -- --cluster`):
// Debian's redis-server package, installed with apt-get when missing (as root), started by hand (Debian's service
// does not start here) on 127.0.0.1 in a temp folder, saving off (or an append-only file when `persistent`), and
// stopped whatever happens.
//
//   const { startRedis } = require("./redis")
//   const redis = await startRedis({ log, logFile })   // redis.url: redis://127.0.0.1:<port>
//   await redis.restart()                              // same port, empty: what a crashed Redis without saving does
//   await redis.stop()
//
// Plain Node on purpose: `node scripts/lib/redis.js` installs redis-server and prints its version.

const { spawn, spawnSync } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { freePort } = require("./postgres")
const { ensureDebianProgram, findExecutable, isRunning, stopChild, waitForReadyLine } = require("./system-tools")

const REDIS_PATHS = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
const READY_LINE = /Ready to accept connections/
const START_TIMEOUT_MS = 30_000

function findRedisServer() {
  return findExecutable("REDIS_SERVER_PATH", REDIS_PATHS)
}

/** Installs Debian's redis-server package when it is missing; returns the executable's path. */
function ensureRedisServer(log = console.log) {
  return ensureDebianProgram({
    command: "redis-server",
    pkg: "redis-server",
    envVar: "REDIS_SERVER_PATH",
    candidates: REDIS_PATHS,
    log,
  })
}

/**
 * The command line: loopback only, no RDB snapshots, in the foreground, working folder `dir`; the append-only file
 * (every write synced before it is answered) only when `persistent`.
 */
function redisArgs(port, dir, persistent = false) {
  return [
    "--bind",
    "127.0.0.1",
    "--port",
    String(port),
    "--save",
    "",
    ...(persistent ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]),
    "--daemonize",
    "no",
    "--dir",
    dir,
    "--protected-mode",
    "yes",
    "--logfile",
    "",
  ]
}

async function launch(executable, port, dir, logFile, persistent) {
  // Its own process group: a terminal's Ctrl-C reaches the demo, which stops the servers first and Redis last.
  const child = spawn(executable, redisArgs(port, dir, persistent), {
    cwd: dir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  await waitForReadyLine(child, {
    name: "redis-server",
    ready: READY_LINE,
    streams: ["stdout", "stderr"],
    timeoutMs: START_TIMEOUT_MS,
    logFile,
  })
  return child
}

/**
 * Starts redis-server on 127.0.0.1 and resolves once it accepts connections.
 * @param {{ port?: number, persistent?: boolean, log?: (line: string) => void, logFile?: string }} options port 0 or
 *   absent: any free port; `persistent`: an append-only file, so a restart (even after SIGKILL) keeps the data
 */
async function startRedis(options = {}) {
  const executable = ensureRedisServer(options.log)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "refpay-redis-"))
  const port = options.port || (await freePort())
  let child = null
  try {
    child = await launch(executable, port, dir, options.logFile, options.persistent)
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true })
    throw error
  }
  let stopped = false
  const redis = {
    host: "127.0.0.1",
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    get pid() {
      return child?.pid
    },
    isRunning: () => isRunning(child),
    /** Stops the server without removing anything: `start()` brings it back on the same port, empty. */
    async halt(signal = "SIGTERM") {
      await stopChild(child, signal)
    },
    async start() {
      if (stopped) throw new Error("this Redis was stopped for good")
      if (isRunning(child)) return
      child = await launch(executable, port, dir, options.logFile, options.persistent)
    },
    /**
     * Down and up again on the same port. With saving off it comes back empty, as a crashed cache server would;
     * `persistent` brings back every write it answered.
     */
    async restart({ signal = "SIGKILL", downMs = 0 } = {}) {
      await redis.halt(signal)
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs))
      await redis.start()
    },
    async stop() {
      if (stopped) return
      stopped = true
      await stopChild(child)
      fs.rmSync(dir, { recursive: true, force: true })
    },
    /** Synchronous last resort for process exit handlers. */
    killNow() {
      if (isRunning(child)) child.kill("SIGKILL")
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
  return redis
}

module.exports = { ensureRedisServer, findRedisServer, redisArgs, startRedis }

if (require.main === module) {
  const executable = ensureRedisServer()
  const version = spawnSync(executable, ["--version"], { encoding: "utf8" }).stdout.trim()
  console.log(`${executable}: ${version}`)
}

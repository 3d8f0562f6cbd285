"use strict"
// What the test and demo tooling needs from the machine, said once: Debian packages installed with apt-get when a
// program is missing, and servers (PostgreSQL, Redis) started as children that print a line once they are ready.
// Plain Node on purpose: this runs before `npm install` may have happened.

const { spawnSync } = require("node:child_process")
const fs = require("node:fs")

/** The first of `$envVar` and `candidates` that exists, else null. */
function findExecutable(envVar, candidates) {
  const fromEnv = process.env[envVar]
  if (fromEnv && fs.existsSync(fromEnv)) return fromEnv
  return candidates.find((candidate) => fs.existsSync(candidate)) ?? null
}

function isRoot() {
  return typeof process.getuid === "function" && process.getuid() === 0
}

/**
 * `apt-get install` of a Debian package, as root. The package lists may be missing or stale on a fresh machine:
 * they are updated once when the first try fails. Throws when the package could not be installed.
 */
function aptInstall(pkg, { log = console.log, recommends = false } = {}) {
  log(`Installing Debian's ${pkg} package (apt-get)...`)
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  const flags = ["install", "-y", "-qq", ...(recommends ? [] : ["--no-install-recommends"]), pkg]
  const install = () => spawnSync("apt-get", flags, { stdio: "inherit", env }).status
  if (install() === 0) return
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env }).status
  if (update !== 0) throw new Error(`apt-get update failed with exit code ${update}`)
  const retry = install()
  if (retry !== 0) throw new Error(`apt-get install ${pkg} failed with exit code ${retry}`)
}

/**
 * The path of `command`, found through `envVar` or `candidates`; installs Debian's `pkg` first when it is missing
 * (as root; anyone else is told how).
 */
function ensureDebianProgram({ command, pkg, envVar, candidates, log, recommends }) {
  const found = findExecutable(envVar, candidates)
  if (found) return found
  if (!isRoot()) {
    throw new Error(
      `${command} is not installed. Install Debian's package: sudo apt-get install -y ${pkg} (or set ${envVar}).`
    )
  }
  aptInstall(pkg, { log, recommends })
  const installed = findExecutable(envVar, candidates)
  if (!installed) throw new Error(`apt-get installed ${pkg} but no ${command} executable was found`)
  return installed
}

/**
 * Resolves once `child` prints a line matching `ready` on one of `streams` ("stdout", "stderr"); rejects (and
 * SIGKILLs it) when it exits first or `timeoutMs` passes. Everything it prints goes on to `logFile`, before and after,
 * so a full pipe never blocks the server.
 */
function waitForReadyLine(child, { name, ready, streams, timeoutMs, logFile }) {
  return new Promise((resolve, reject) => {
    let output = ""
    const timer = setTimeout(
      () => fail(new Error(`${name} did not start in ${timeoutMs} ms:\n${output.slice(-2000)}`)),
      timeoutMs
    )
    const keep = (chunk) => logFile && fs.appendFileSync(logFile, chunk)
    const onData = (chunk) => {
      output += chunk
      keep(chunk)
      if (ready.test(output)) done()
    }
    const onExit = (code) => fail(new Error(`${name} exited with code ${code} while starting:\n${output.slice(-2000)}`))
    const each = (act) => streams.forEach((stream) => act(child[stream]))
    function cleanup() {
      clearTimeout(timer)
      child.off("exit", onExit)
      each((stream) => {
        stream.off("data", onData)
        stream.on("data", keep)
      })
    }
    function done() {
      cleanup()
      resolve()
    }
    function fail(error) {
      cleanup()
      child.kill("SIGKILL")
      reject(error)
    }
    each((stream) => {
      stream.setEncoding("utf8")
      stream.on("data", onData)
    })
    child.on("exit", onExit)
  })
}

function isRunning(child) {
  return Boolean(child) && child.exitCode === null && child.signalCode === null
}

/** Sends `signal`, SIGKILL after `graceMs`; resolves once the child has exited. */
function stopChild(child, signal = "SIGTERM", graceMs = 10_000) {
  return new Promise((resolve) => {
    if (!isRunning(child)) return resolve()
    const killer = setTimeout(() => child.kill("SIGKILL"), graceMs)
    child.once("exit", () => {
      clearTimeout(killer)
      resolve()
    })
    child.kill(signal)
  })
}

module.exports = { aptInstall, ensureDebianProgram, findExecutable, isRoot, isRunning, stopChild, waitForReadyLine }

"use strict"
// The demo's long-running children (Medusa, the REFPAY sandbox) and one-shot commands (medusa build, db:migrate,
// seed): each one's output goes to its own log file, a failure shows the end of that log, and stopping a child
// ends its whole process group. Also: loopback port checks and "wait until this URL answers".

const { spawn } = require("node:child_process")
const fs = require("node:fs")
const http = require("node:http")
const net = require("node:net")

/** The last `lines` lines of a log file, for error messages. */
function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n")
  } catch {
    return "(no output)"
  }
}

/**
 * Starts a command in its own process group with stdout and stderr appended to `logFile`.
 * `onLine` sees each stdout line (to spot a "listening" line).
 */
function startProcess(command, args, { cwd, env, logFile, onLine }) {
  const log = fs.openSync(logFile, "a")
  fs.writeSync(log, `\n$ ${[command, ...args].join(" ")}   (cwd ${cwd}, ${new Date().toISOString()})\n`)
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", log] })
  fs.closeSync(log)
  let buffered = ""
  child.stdout.setEncoding("utf8")
  child.stdout.on("data", (chunk) => {
    fs.appendFileSync(logFile, chunk)
    if (!onLine) return
    buffered += chunk
    const lines = buffered.split("\n")
    buffered = lines.pop()
    for (const line of lines) onLine(line)
  })
  return child
}

class InterruptedError extends Error {
  name = "InterruptedError"
  constructor() {
    super("interrupted")
  }
}

/** Throws when `signal` (an AbortSignal) has fired: the demo is being stopped while it starts. */
function throwIfInterrupted(signal) {
  if (signal?.aborted) throw new InterruptedError()
}

/**
 * Runs a command to completion (output to `logFile`); rejects with the end of the log when it fails, and ends the
 * command's process group when `signal` fires.
 */
function runCommand(label, command, args, { cwd, env, logFile, signal }) {
  throwIfInterrupted(signal)
  return new Promise((resolve, reject) => {
    const child = startProcess(command, args, { cwd, env, logFile })
    const onAbort = () => void stopProcess(child, 5_000)
    signal?.addEventListener("abort", onAbort, { once: true })
    child.on("error", reject)
    child.on("exit", (code, exitSignal) => {
      signal?.removeEventListener("abort", onAbort)
      if (signal?.aborted) return reject(new InterruptedError())
      if (code === 0) return resolve()
      reject(new Error(`${label} failed (${exitSignal ?? `exit code ${code}`}). End of ${logFile}:\n${tail(logFile)}`))
    })
  })
}

function isRunning(child) {
  return child.exitCode === null && child.signalCode === null
}

/** SIGTERM to the child's process group, SIGKILL after `graceMs`; resolves once it has exited. */
function stopProcess(child, graceMs = 10_000) {
  return new Promise((resolve) => {
    if (!child || !isRunning(child)) return resolve()
    const signalGroup = (signal) => {
      try {
        process.kill(-child.pid, signal)
      } catch {
        // already gone
      }
    }
    const killer = setTimeout(() => signalGroup("SIGKILL"), graceMs)
    child.once("exit", () => {
      clearTimeout(killer)
      signalGroup("SIGKILL") // anything the child left behind in its group
      resolve()
    })
    signalGroup("SIGTERM")
  })
}

/** Synchronous last resort (process exit handlers). */
function killNow(child) {
  if (!child || !isRunning(child)) return
  try {
    process.kill(-child.pid, "SIGKILL")
  } catch {
    // already gone
  }
}

/** Resolves when nothing listens on 127.0.0.1:port (nor ::1:port), rejects with a helpful message otherwise. */
async function assertPortFree(port, flag) {
  for (const host of ["127.0.0.1", "::1"]) {
    const error = await new Promise((resolve) => {
      const server = net.createServer()
      server.once("error", resolve)
      server.listen(port, host, () => server.close(() => resolve(null)))
    })
    if (error && error.code === "EADDRINUSE") {
      throw new Error(
        `Port ${port} is already in use on ${host}. Stop what uses it, or pick another port with ${flag} <port>.`
      )
    }
    // EADDRNOTAVAIL / EAFNOSUPPORT: no IPv6 loopback here; nothing to check.
  }
}

/** GETs `url` until it answers `status` (default 200), `child` exits, or `timeoutMs` passes. */
async function waitForHttp(url, { child, timeoutMs = 120_000, status = 200, logFile, label, signal }) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    throwIfInterrupted(signal)
    if (child && !isRunning(child)) {
      throw new Error(
        `${label} exited while starting (${child.signalCode ?? `exit code ${child.exitCode}`}). End of ${logFile}:\n${tail(logFile)}`
      )
    }
    const answered = await new Promise((resolve) => {
      const request = http.get(url, { timeout: 2000 }, (response) => {
        response.resume()
        resolve(response.statusCode)
      })
      request.on("error", () => resolve(null))
      request.on("timeout", () => request.destroy())
    })
    if (answered === status) return
    if (Date.now() > deadline) {
      throw new Error(
        `${label} did not answer ${url} within ${timeoutMs / 1000} s. End of ${logFile}:\n${tail(logFile)}`
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/**
 * Starts a REFPAY sandbox process (`command args`) and resolves with it once it says it listens; rejects, naming
 * `what` and the log, when it exits first.
 */
function startSandboxUntilListening(command, args, { cwd, env, logFile, what = "The REFPAY sandbox" }) {
  return new Promise((resolve, reject) => {
    let settled = false
    const child = startProcess(command, args, {
      cwd,
      env,
      logFile,
      onLine: (line) => {
        if (!settled && line.startsWith("REFPAY sandbox listening")) {
          settled = true
          resolve(child)
        }
      },
    })
    child.on("exit", (code) => {
      if (settled) return
      settled = true
      reject(new Error(`${what} exited with code ${code} while starting. See ${logFile}`))
    })
  })
}

module.exports = {
  assertPortFree,
  InterruptedError,
  isRunning,
  killNow,
  runCommand,
  startProcess,
  startSandboxUntilListening,
  stopProcess,
  tail,
  throwIfInterrupted,
  waitForHttp,
}

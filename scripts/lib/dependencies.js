"use strict"
// Installs the npm dependencies when they are missing or older than the lockfile, so `npm test` and
// `npm run demo` work on a fresh clone. `npm install`, not `npm ci`: the registry reachable here lacks other
// platforms' optional binaries that a lockfile may name, and `npm ci` fails on those; `npm install` still
// honours the lockfile.

const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs
  } catch {
    return null
  }
}

function needsInstall(root) {
  const installed = mtime(path.join(root, "node_modules", ".package-lock.json"))
  if (installed === null) return true
  const manifest = Math.max(
    mtime(path.join(root, "package.json")) ?? 0,
    mtime(path.join(root, "package-lock.json")) ?? 0
  )
  return manifest > installed
}

function ensureDependencies(root, log = console.log) {
  if (!needsInstall(root)) return
  log("Installing npm dependencies (npm install)...")
  const result = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" })
  if (result.status !== 0) throw new Error(`npm install failed with exit code ${result.status}`)
  // npm leaves the lockfile newer than node_modules when it rewrites nothing but the timestamp.
  const stamp = path.join(root, "node_modules", ".package-lock.json")
  if (fs.existsSync(stamp)) fs.utimesSync(stamp, new Date(), new Date())
}

module.exports = { ensureDependencies }

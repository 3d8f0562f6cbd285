"use strict"
// Gets the plugin into the demo shop the way a shop owner gets it: `medusa plugin:build`, `npm pack`, and the
// tarball's contents as demo/node_modules/medusa-payment-refpay. Only what the package's `files` ships is there,
// and Medusa reaches it only through the package's `exports`, so a packaging mistake breaks the demo, not a user.
// The tarball's dependencies and @medusajs/* resolve from the repository's node_modules (Node's upward lookup),
// which saves a second full install.

const { spawnSync } = require("node:child_process")
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")
const { runCommand } = require("./demo-processes")

const PACKAGE = "medusa-payment-refpay"

/**
 * Newest (or oldest) modification time among the files under `dir` (or of `dir` itself when it is a file); null
 * when there are none. Folders do not count: `medusa plugin:build` itself touches src/admin.
 */
function mtimeBound(dir, pick) {
  let bound = null
  const visit = (entry) => {
    let stat
    try {
      stat = fs.statSync(entry)
    } catch {
      return
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name))
    else bound = bound === null ? stat.mtimeMs : pick(bound, stat.mtimeMs)
  }
  visit(dir)
  return bound
}

/** `medusa plugin:build` unless .medusa/server is newer than everything in src/ (and tsconfig.json). */
async function buildPlugin({ root, medusaCli, env, logFile, log, signal }) {
  const output = path.join(root, ".medusa", "server")
  const built = mtimeBound(output, Math.min)
  const sources = Math.max(mtimeBound(path.join(root, "src"), Math.max) ?? 0, mtimeBound(path.join(root, "tsconfig.json"), Math.max) ?? 0)
  if (built !== null && built > sources && fs.existsSync(path.join(output, "src"))) {
    log("plugin build is newer than src/: skipping medusa plugin:build")
    return false
  }
  await runCommand("medusa plugin:build", process.execPath, [medusaCli, "plugin:build"], { cwd: root, env, logFile, signal })
  return true
}

/** `npm pack` into `packDir`; returns the tarball (copied to a stable name too) and its sha256. */
function packPlugin({ root, packDir }) {
  fs.mkdirSync(packDir, { recursive: true })
  const result = spawnSync("npm", ["pack", "--json", "--pack-destination", packDir], { cwd: root, encoding: "utf8" })
  if (result.status !== 0) throw new Error(`npm pack failed:\n${result.stderr}`)
  const [info] = JSON.parse(result.stdout)
  const packed = path.join(packDir, info.filename)
  const tarball = path.join(packDir, `${PACKAGE}.tgz`)
  fs.copyFileSync(packed, tarball)
  if (packed !== tarball) fs.rmSync(packed)
  const sha256 = crypto.createHash("sha256").update(fs.readFileSync(tarball)).digest("hex")
  return { tarball, sha256, files: info.files.map((file) => file.path), version: info.version }
}

/** Extracts the tarball as demo/node_modules/medusa-payment-refpay unless that exact tarball is already there. */
function installPlugin({ demoDir, tarball, sha256 }) {
  const modules = path.join(demoDir, "node_modules")
  const target = path.join(modules, PACKAGE)
  const stamp = path.join(modules, `.${PACKAGE}.sha256`)
  const current = fs.existsSync(stamp) ? fs.readFileSync(stamp, "utf8").trim() : null
  if (current === sha256 && fs.existsSync(path.join(target, "package.json"))) return false
  fs.rmSync(target, { recursive: true, force: true })
  fs.mkdirSync(target, { recursive: true })
  const result = spawnSync("tar", ["-xzf", tarball, "-C", target, "--strip-components=1"], { encoding: "utf8" })
  if (result.status !== 0) throw new Error(`Could not extract ${tarball}: ${result.stderr}`)
  fs.writeFileSync(stamp, `${sha256}\n`)
  return true
}

/**
 * Resolves, from the demo app, every entry point a shop uses, so a wrong `exports` or `files` names itself here
 * instead of as a Medusa boot error. In a child process started in demo/: from this file, Node would resolve the
 * package name to this repository itself (package self-reference).
 */
function checkEntryPoints(demoDir) {
  const entries = [`${PACKAGE}/package.json`, `${PACKAGE}/providers/refpay`, `${PACKAGE}/admin`]
  const script = `
    const path = require("node:path")
    const inside = path.join(process.cwd(), "node_modules") + path.sep
    const problems = []
    for (const entry of ${JSON.stringify(entries)}) {
      try {
        const resolved = require.resolve(entry, { paths: [process.cwd()] })
        if (!resolved.startsWith(inside)) problems.push(entry + " resolved outside the demo's node_modules: " + resolved)
      } catch (error) {
        problems.push(entry + ": " + (error.code || error.message))
      }
    }
    process.stdout.write(JSON.stringify(problems))`
  const result = spawnSync(process.execPath, ["-e", script], { cwd: demoDir, encoding: "utf8" })
  const problems = result.status === 0 ? JSON.parse(result.stdout) : [result.stderr]
  if (problems.length) {
    throw new Error(`The packed plugin does not expose what a shop needs (check "exports" and "files" in package.json):\n  ${problems.join("\n  ")}`)
  }
}

module.exports = { buildPlugin, checkEntryPoints, installPlugin, packPlugin, PACKAGE }

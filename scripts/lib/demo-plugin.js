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
const { checkExports, exportEntries } = require("./package-exports")

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

/**
 * `medusa plugin:build` unless .medusa/server is newer than everything in src/ (and tsconfig.json), then the type
 * declarations of the public entry points (as `npm run build` does; cheap, and a build made elsewhere lacks them).
 */
async function buildPlugin({ root, medusaCli, env, logFile, log, signal }) {
  const output = path.join(root, ".medusa", "server")
  const built = mtimeBound(output, Math.min)
  const sources = Math.max(
    mtimeBound(path.join(root, "src"), Math.max) ?? 0,
    mtimeBound(path.join(root, "tsconfig.json"), Math.max) ?? 0
  )
  const upToDate = built !== null && built > sources && fs.existsSync(path.join(output, "src"))
  if (upToDate) log("plugin build is newer than src/: skipping medusa plugin:build")
  else
    await runCommand("medusa plugin:build", process.execPath, [medusaCli, "plugin:build"], {
      cwd: root,
      env,
      logFile,
      signal,
    })
  const tsc = require.resolve("typescript/bin/tsc", { paths: [root] })
  await runCommand("tsc (declarations)", process.execPath, [tsc, "-p", "tsconfig.types.json"], {
    cwd: root,
    env,
    logFile,
    signal,
  })
  return !upToDate
}

/**
 * `npm pack` (which runs `prepack`) into `packDir`; returns the tarball (copied to a stable name too), its sha256, and
 * `buildSha256`, a hash of what it ships apart from the sandbox.
 */
function packPlugin({ root, packDir }) {
  fs.mkdirSync(packDir, { recursive: true })
  const result = spawnSync("npm", ["pack", "--json", "--pack-destination", packDir], { cwd: root, encoding: "utf8" })
  if (result.status !== 0) throw new Error(`npm pack failed:\n${result.stderr}`)
  // `prepack` builds sandbox/dist (scripts/build-sandbox.js). npm 11 prints lifecycle banners on stderr with --json;
  // older npm versions put them before the JSON on stdout.
  const start = result.stdout.search(/^\[/m)
  const [info] = JSON.parse(start === -1 ? result.stdout : result.stdout.slice(start))
  const packed = path.join(packDir, info.filename)
  const tarball = path.join(packDir, `${PACKAGE}.tgz`)
  fs.copyFileSync(packed, tarball)
  if (packed !== tarball) fs.rmSync(packed)
  const sha256 = crypto.createHash("sha256").update(fs.readFileSync(tarball)).digest("hex")
  const files = info.files.map((file) => file.path)
  // What `medusa build` of the shop depends on: the tarball minus the sandbox and the storefront components (which the
  // shop's server never loads), so a change to either does not cost the demo a shop rebuild.
  const build = crypto.createHash("sha256")
  for (const file of files.filter((f) => !f.startsWith("sandbox/") && !f.startsWith("storefront-kit/")).sort()) {
    build
      .update(file)
      .update("\0")
      .update(fs.readFileSync(path.join(root, file)))
      .update("\0")
  }
  return { tarball, sha256, buildSha256: build.digest("hex"), files, version: info.version }
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

/** The entry points a shop's configuration names: they must be among the package's exports. */
const SHOP_ENTRY_POINTS = [`${PACKAGE}/package.json`, `${PACKAGE}/providers/refpay`, `${PACKAGE}/admin`]

/**
 * Resolves, from the demo app, every entry point of the package's `exports` (patterns expanded over the files it
 * ships), so a wrong `exports` or `files` names itself here instead of as a Medusa boot error. The packed-package
 * test (integration-tests/package) goes further and loads each one.
 */
function checkEntryPoints(demoDir) {
  const packageDir = path.join(demoDir, "node_modules", PACKAGE)
  const exported = new Set(exportEntries(packageDir).map((e) => e.specifier))
  const problems = SHOP_ENTRY_POINTS.filter((entry) => !exported.has(entry)).map((entry) => `${entry} is not exported`)
  problems.push(...checkExports({ shopDir: demoDir, packageName: PACKAGE }))
  if (problems.length) {
    throw new Error(
      `The packed plugin does not expose what a shop needs (check "exports" and "files" in package.json):\n  ${problems.join("\n  ")}`
    )
  }
}

module.exports = { buildPlugin, checkEntryPoints, installPlugin, packPlugin, PACKAGE, SHOP_ENTRY_POINTS }

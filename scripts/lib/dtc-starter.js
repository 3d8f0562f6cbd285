"use strict"
// Medusa's dtc-starter with the REFPAY wiring applied, as a shop would have it, for the `--starter` browser test
// (e2e/dtc-starter.starter.spec.ts): the starter's commit from a git directory (REFPAY_DTC_STARTER_GIT, by default the
// mirror on this machine; REFPAY_DTC_STARTER_COMMIT, by default its HEAD), storefront-kit/nextjs-starter's
// refpay-dtc-starter.patch applied with `git apply`, its storefront's dependencies installed with npm from the npm
// registry (kept in ~/.cache/refpay-starter between runs while its package.json is the same), the packed plugin
// installed into it, `next build` against the running demo shop, and `next start` on loopback.

const { spawnSync } = require("node:child_process")
const crypto = require("node:crypto")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { runCommand, startProcess, stopProcess, waitForHttp } = require("./demo-processes")

const ROOT = path.resolve(__dirname, "..", "..")
const PATCH = path.join(ROOT, "storefront-kit", "nextjs-starter", "refpay-dtc-starter.patch")
const CACHE = path.join(os.homedir(), ".cache", "refpay-starter")
const DEFAULT_GIT = "/work/.mirror/medusajs+dtc-starter/repo"

function git(gitDir, args) {
  const result = spawnSync("git", ["--git-dir", gitDir, ...args], { encoding: "buffer", maxBuffer: 1 << 30 })
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`)
  return result.stdout
}

/** The starter at `commit`, patched, in a fresh folder; the storefront's node_modules carried over from the cache. */
function checkout({ logFile }) {
  const gitDir = process.env.REFPAY_DTC_STARTER_GIT || DEFAULT_GIT
  if (!fs.existsSync(gitDir)) throw new Error(`No dtc-starter git directory at ${gitDir} (set REFPAY_DTC_STARTER_GIT)`)
  const commit = git(gitDir, ["rev-parse", process.env.REFPAY_DTC_STARTER_COMMIT || "HEAD"])
    .toString()
    .trim()
  const dir = path.join(CACHE, "tree")
  const modules = path.join(CACHE, "storefront-node_modules")
  const storefront = path.join(dir, "apps", "storefront")
  if (fs.existsSync(path.join(storefront, "node_modules")))
    fs.renameSync(path.join(storefront, "node_modules"), modules)
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  const archive = git(gitDir, ["archive", "--format=tar", commit])
  const tar = spawnSync("tar", ["-x", "-C", dir], { input: archive })
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`)
  const applied = spawnSync("git", ["apply", PATCH], { cwd: dir, encoding: "utf8" })
  fs.appendFileSync(logFile, `dtc-starter ${commit}: git apply ${PATCH}: ${applied.status}\n${applied.stderr}`)
  if (applied.status !== 0)
    throw new Error(`refpay-dtc-starter.patch does not apply to dtc-starter ${commit}:\n${applied.stderr}`)
  if (fs.existsSync(modules)) fs.renameSync(modules, path.join(storefront, "node_modules"))
  return { dir, storefront, commit }
}

const npm = (args, options) => runCommand(`npm ${args[0]}`, "npm", args, options)
const NPM_QUIET = ["--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline"]

/**
 * Prepares and builds the patched starter against the demo shop (`next build` renders pages from the shop).
 * @returns {Promise<{ storefront: string, commit: string, env: object }>}
 */
async function buildDtcStarter({ shopUrl, publishableKey, baseUrl, tarball, logFile }) {
  fs.mkdirSync(CACHE, { recursive: true })
  const { storefront, commit } = checkout({ logFile })
  const env = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_PUBLIC_MEDUSA_BACKEND_URL: shopUrl,
    MEDUSA_BACKEND_URL: shopUrl,
    NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY: publishableKey,
    NEXT_PUBLIC_BASE_URL: baseUrl,
    NEXT_PUBLIC_DEFAULT_REGION: "pt",
  }
  delete env.NODE_OPTIONS // the test runner's --experimental-vm-modules is not for Next
  const installEnv = { ...env, NODE_ENV: "development" }
  const manifest = fs.readFileSync(path.join(storefront, "package.json"))
  const stamp = path.join(storefront, "node_modules", ".refpay-starter-package-json.sha256")
  const hash = crypto.createHash("sha256").update(manifest).digest("hex")
  if (!fs.existsSync(stamp) || fs.readFileSync(stamp, "utf8") !== hash) {
    await npm(["install", ...NPM_QUIET], { cwd: storefront, env: installEnv, logFile })
    fs.writeFileSync(stamp, hash)
  }
  // The plugin as a shop installs it in a storefront: the packed tarball (its Medusa peers are optional).
  await npm(["install", ...NPM_QUIET, "--no-save", tarball], { cwd: storefront, env: installEnv, logFile })
  const next = path.join(storefront, "node_modules", "next", "dist", "bin", "next")
  await runCommand("next build", process.execPath, [next, "build"], { cwd: storefront, env, logFile })
  return { storefront, commit, env }
}

/** `next start` on 127.0.0.1:port; resolves once it answers. */
async function startDtcStarter({ storefront, env, port, logFile }) {
  const next = path.join(storefront, "node_modules", "next", "dist", "bin", "next")
  const child = startProcess(process.execPath, [next, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: storefront,
    env,
    logFile,
  })
  await waitForHttp(`http://127.0.0.1:${port}/pt`, {
    child,
    logFile,
    label: "dtc-starter (next start)",
    timeoutMs: 120_000,
  })
  return { url: `http://localhost:${port}`, stop: () => stopProcess(child) }
}

module.exports = { buildDtcStarter, startDtcStarter }

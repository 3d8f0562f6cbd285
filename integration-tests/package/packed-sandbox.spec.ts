// The published package, as a shop gets it: `medusa plugin:build` (skipped when up to date), `npm pack` (whose
// `prepack` builds sandbox/dist), `npm install <tarball>` into an empty folder outside this repository, then
// `npx refpay-sandbox` there, and every entry point of `exports` loaded from that folder.
//
// Offline-friendly: `--legacy-peer-deps` installs the package and its two dependencies only (undici, zod; from the
// npm cache when there) instead of resolving Medusa's whole tree for the peer dependencies (`--omit=peer` still
// resolves it: about a minute). For the exports check, the shop's own Medusa install is stood in for by links to
// this repository's copies of the peer dependencies, react and react-dom, and everything they depend on.
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { randomUUID } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

/* eslint-disable @typescript-eslint/no-require-imports */
const { buildPlugin, packPlugin, PACKAGE, SHOP_ENTRY_POINTS } = require("../../scripts/lib/demo-plugin") as {
  buildPlugin: (o: object) => Promise<boolean>
  packPlugin: (o: { root: string; packDir: string }) => { tarball: string; sha256: string; files: string[] }
  PACKAGE: string
  SHOP_ENTRY_POINTS: string[]
}
const { checkExports, exportEntries } = require("../../scripts/lib/package-exports") as {
  checkExports: (o: { shopDir: string; packageName: string; load?: boolean; env?: NodeJS.ProcessEnv }) => string[]
  exportEntries: (packageDir: string) => { specifier: string; mode: string }[]
}
/* eslint-enable @typescript-eslint/no-require-imports */

const root = path.resolve(__dirname, "..", "..")
const artifacts = path.join(root, ".test-artifacts")
const timings: Record<string, number> = {}

let work: string
let shop: string
let packed: ReturnType<typeof packPlugin>

/** npm's own variables from `npm test` (npm_package_*, npm_config_local_prefix...) would point npm at this repository. */
function npmEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = /^npm_config_(cache|userconfig|globalconfig|registry|cafile|.*proxy|noproxy)$/
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("npm_") || keep.test(key))
  )
  return { ...env, npm_config_yes: "false", npm_config_update_notifier: "false", ...extra }
}

function run(command: string, args: string[], cwd: string, timeout = 180_000): string {
  const result = spawnSync(command, args, { cwd, env: npmEnv(), encoding: "utf8", timeout })
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (${result.status ?? result.signal}):\n${result.stderr}`)
  return result.stdout
}

async function timed<T>(name: string, work: () => Promise<T> | T): Promise<T> {
  const started = Date.now()
  try {
    return await work()
  } finally {
    timings[name] = Date.now() - started
  }
}

beforeAll(async () => {
  fs.mkdirSync(artifacts, { recursive: true })
  const medusaCli = require.resolve("@medusajs/cli/cli.js", { paths: [root] })
  await timed("plugin_build", () =>
    buildPlugin({
      root,
      medusaCli,
      env: { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true" },
      logFile: path.join(artifacts, "packed-plugin-build.log"),
      log: () => undefined,
    })
  )
  work = fs.mkdtempSync(path.join(os.tmpdir(), "refpay-packed-"))
  packed = await timed("npm_pack", () => packPlugin({ root, packDir: path.join(work, "pack") }))
  shop = path.join(work, "shop")
  fs.mkdirSync(shop)
  fs.writeFileSync(
    path.join(shop, "package.json"),
    `${JSON.stringify({ name: "refpay-shop", version: "1.0.0", private: true }, null, 2)}\n`
  )
  await timed("npm_install", () =>
    run(
      "npm",
      [
        "install",
        packed.tarball,
        "--legacy-peer-deps",
        "--ignore-scripts",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
      ],
      shop
    )
  )
}, 300_000)

afterAll(() => {
  fs.writeFileSync(path.join(artifacts, "packed-sandbox-timings.json"), `${JSON.stringify(timings, null, 2)}\n`)
  if (work) fs.rmSync(work, { recursive: true, force: true })
})

describe("the packed package", () => {
  it("ships the compiled sandbox and its launcher, not the sandbox's sources or tests, and no ./workflows export", () => {
    expect(packed.files).toEqual(
      expect.arrayContaining(["sandbox/bin/refpay-sandbox.js", "sandbox/dist/cli.js", "sandbox/dist/index.js"])
    )
    expect(packed.files.filter((f) => /^sandbox\/(src|__tests__)\//.test(f) || f.startsWith("scripts/"))).toEqual([])
    const manifest = JSON.parse(fs.readFileSync(path.join(shop, "node_modules", PACKAGE, "package.json"), "utf8"))
    expect(manifest.exports["./workflows"]).toBeUndefined()
    expect(fs.readdirSync(path.join(shop, "node_modules")).sort()).toEqual([
      ".bin",
      ".package-lock.json",
      "jose",
      PACKAGE,
      "undici",
      "uuid",
      "zod",
    ])
  })

  it("ships medusa-payment-refpay/storefront built: ESM with declarations and its stylesheet, no sources, no server code, no Next.js", () => {
    const dist = packed.files.filter((f) => f.startsWith("storefront-kit/"))
    expect(dist).toEqual(
      expect.arrayContaining([
        "storefront-kit/dist/index.js",
        "storefront-kit/dist/index.d.ts",
        "storefront-kit/dist/payment-instructions.js",
        "storefront-kit/dist/payment-collection.js",
        "storefront-kit/dist/styles.css",
        "storefront-kit/dist/package.json",
      ])
    )
    expect(
      dist.filter((f) => f.startsWith("storefront-kit/src/") || f.startsWith("storefront-kit/nextjs-starter/"))
    ).toEqual([])
    const installed = path.join(shop, "node_modules", PACKAGE, "storefront-kit", "dist")
    expect(JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8"))).toEqual({
      type: "module",
      sideEffects: ["*.css"],
    })
    // What the browser code imports: React and its own files, nothing of Medusa's server, Node or Next.js.
    const imported = new Set<string>()
    for (const file of fs.readdirSync(installed).filter((f) => f.endsWith(".js"))) {
      const code = fs.readFileSync(path.join(installed, file), "utf8")
      for (const [, specifier] of code.matchAll(/\bfrom\s+"([^"]+)"/g))
        if (!specifier.startsWith("./")) imported.add(specifier)
    }
    expect([...imported].sort()).toEqual(["react", "react/jsx-runtime"])
  })

  it("npx refpay-sandbox --help works in the shop", () => {
    const help = timedSync("npx_help", () =>
      spawnSync("npx", ["refpay-sandbox", "--help"], { cwd: shop, env: npmEnv(), encoding: "utf8", timeout: 60_000 })
    )
    expect(help.stderr.replace(/^npm warn .*\n/gm, "")).toBe("")
    expect(help.status).toBe(0)
    expect(help.stdout).toMatch(/^Usage: refpay-sandbox \[options\]/)
    expect(help.stdout).toContain("--state <file>")
    expect(help.stdout).toContain("REFPAY_SANDBOX_WEBHOOK_SECRET")
  }, 60_000)

  it("npx refpay-sandbox --state: a T1 token and a payment over loopback, still there and payable after a restart", async () => {
    const stateFile = path.join(shop, "sandbox.json")
    const first = await timed("npx_start", () =>
      startSandbox(["--port", "0", "--host", "127.0.0.1", "--state", "sandbox.json"])
    )
    const paymentId = randomUUID()
    let reference: string
    try {
      const token = await t1Token(first.url)
      const created = await fetch(`${first.url}/dpm/payments-gwproxy/v2/payments`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({
          idempotency_key: randomUUID(),
          request_id: randomUUID(),
          order_id: "packed-1",
          data: {
            amount: 1999,
            currency: "EUR",
            payment: { payment_id: paymentId, payment_method: "CASH_PAYMENT", brand: "REFPAY" },
          },
        }),
      })
      expect(created.status).toBe(201)
      const body = await created.json()
      expect(body).toMatchObject({ status: "WAITING", amount: "1999" })
      reference = body.additional_data.reference
      expect(reference).toMatch(/^\d{9}$/)
      await waitUntil(() => fs.existsSync(stateFile) && fs.readFileSync(stateFile, "utf8").includes(paymentId))
    } finally {
      await first.stop()
    }

    const second = await startSandbox(["--port", "0", "--host", "127.0.0.1"], { REFPAY_SANDBOX_STATE: stateFile })
    try {
      const token = await t1Token(second.url)
      const status = await fetch(`${second.url}/dpm/hub-payment-info/v1/payments/info/${paymentId}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      expect(status.status).toBe(200)
      expect(await status.json()).toMatchObject({
        payment_id: paymentId,
        status: "WAITING",
        additional_data: { reference },
      })
      const paid = await fetch(`${second.url}/__sandbox/payments/${paymentId}/pay`, { method: "POST" })
      expect(paid.status).toBe(200)
      expect((await paid.json()).status).toBe("APPROVED")
    } finally {
      await second.stop()
    }
  }, 60_000)

  it("every entry point of exports loads from the shop folder", async () => {
    await timed("link_shop_dependencies", () => linkShopDependencies())
    const exported = exportEntries(path.join(shop, "node_modules", PACKAGE)).map((e) => e.specifier)
    expect(exported).toEqual(expect.arrayContaining(SHOP_ENTRY_POINTS))
    expect(exported.length).toBeGreaterThan(SHOP_ENTRY_POINTS.length)
    const problems = await timed("exports_check", () =>
      checkExports({ shopDir: shop, packageName: PACKAGE, load: true, env: npmEnv() })
    )
    expect(problems).toEqual([])
  }, 120_000)
})

function timedSync<T>(name: string, work: () => T): T {
  const started = Date.now()
  try {
    return work()
  } finally {
    timings[name] = Date.now() - started
  }
}

async function waitUntil(probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!probe()) {
    if (Date.now() > deadline) throw new Error("waitUntil: timed out")
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function t1Token(url: string): Promise<string> {
  const res = await fetch(`${url}/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&client_id=sandbox-client-id&client_secret=sandbox-client-secret",
  })
  expect(res.status).toBe(200)
  return (await res.json()).access_token
}

/** `npx refpay-sandbox ...` in the shop, in its own process group (npx -> sh -> node), until it prints its URLs. */
function startSandbox(
  args: string[],
  env: Record<string, string> = {}
): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn("npx", ["refpay-sandbox", ...args], {
    cwd: shop,
    env: npmEnv(env),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const group = child.pid as number
  const stop = async () => {
    try {
      process.kill(-group, "SIGTERM")
    } catch {
      return
    }
    // Until every process of the group (npm, sh, the sandbox saving its state) is gone.
    await waitUntil(() => {
      try {
        process.kill(-group, 0)
        return false
      } catch {
        return true
      }
    })
  }
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const match = /payments_url=(http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) resolve({ url: match[1] as string, stop })
    })
    child.once("exit", (code) => reject(new Error(`npx refpay-sandbox exited (${code}) before listening:\n${output}`)))
  })
}

/**
 * Stands in for the shop's own Medusa install: links, in the shop's node_modules, this repository's copies of the
 * package's peer dependencies, react and react-dom (every Medusa shop has them for its admin), and everything those
 * depend on, as npm would have hoisted them. The package's own dependencies stay the ones npm installed.
 */
function linkShopDependencies(): void {
  const modules = path.join(root, "node_modules")
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))
  const queue = [...Object.keys(manifest.peerDependencies ?? {}), "react", "react-dom"]
  const seen = new Set<string>()
  while (queue.length > 0) {
    const name = queue.shift() as string
    const file = path.join(modules, name, "package.json")
    if (seen.has(name) || !fs.existsSync(file)) continue
    seen.add(name)
    const dep = JSON.parse(fs.readFileSync(file, "utf8"))
    queue.push(...Object.keys({ ...dep.dependencies, ...dep.optionalDependencies, ...dep.peerDependencies }))
  }
  for (const name of seen) {
    const link = path.join(shop, "node_modules", name)
    if (fs.existsSync(link)) continue
    fs.mkdirSync(path.dirname(link), { recursive: true })
    fs.symlinkSync(path.join(modules, name), link, "dir")
  }
}

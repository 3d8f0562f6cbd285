#!/usr/bin/env node
"use strict"
// Compiles the REFPAY sandbox (sandbox/src/*.ts) to CommonJS in sandbox/dist, which the published package ships and
// `npx refpay-sandbox` runs (sandbox/src is not published). Runs as `prepack`, so `npm pack` and `npm publish` always
// ship a fresh build; `npm run build:sandbox` runs it by hand.
//
// esbuild, one output file per source file (no bundling: the sandbox imports Node's built-in modules and the package's
// own dependencies, zod and jose, which npm installs beside it), in well under
// a second. Type checking is the tests' job (`tsc -p sandbox/__tests__/tsconfig.json`). When the output would be the
// same as what sandbox/dist holds, nothing is written; otherwise the new build is written beside it and swapped in with
// renames, so a concurrent `npm pack` never reads a half-written folder. Output goes to stderr: `npm pack --json`
// prints its JSON on stdout.

const fs = require("node:fs")
const path = require("node:path")

const root = path.resolve(__dirname, "..")
const sourceDir = path.join(root, "sandbox", "src")
const distDir = path.join(root, "sandbox", "dist")

/** The compiled files, in memory: { relative path -> contents }. */
function compile() {
  const esbuild = require("esbuild")
  const entryPoints = fs
    .readdirSync(sourceDir)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .map((name) => path.join(sourceDir, name))
  const result = esbuild.buildSync({
    entryPoints,
    outdir: distDir,
    outbase: sourceDir,
    bundle: false,
    format: "cjs",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
  })
  const files = new Map()
  for (const file of result.outputFiles) files.set(path.relative(distDir, file.path), Buffer.from(file.contents))
  return files
}

/** What sandbox/dist holds now, the same way; null when it does not exist. */
function current() {
  if (!fs.existsSync(distDir)) return null
  const files = new Map()
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) visit(full)
      else files.set(path.relative(distDir, full), fs.readFileSync(full))
    }
  }
  visit(distDir)
  return files
}

function same(a, b) {
  if (!a || !b || a.size !== b.size) return false
  for (const [name, contents] of a) if (!b.get(name)?.equals(contents)) return false
  return true
}

/** Writes the build beside sandbox/dist and swaps it in: the folder is either the old build or the new one. */
function install(files) {
  const staging = path.join(root, "sandbox", `.dist-staging-${process.pid}`)
  const retired = path.join(root, "sandbox", `.dist-retired-${process.pid}`)
  fs.rmSync(staging, { recursive: true, force: true })
  for (const [name, contents] of files) {
    const file = path.join(staging, name)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, contents)
  }
  try {
    if (fs.existsSync(distDir)) fs.renameSync(distDir, retired)
    fs.renameSync(staging, distDir)
  } finally {
    fs.rmSync(staging, { recursive: true, force: true })
    fs.rmSync(retired, { recursive: true, force: true })
  }
}

function main() {
  const started = Date.now()
  const files = compile()
  if (!files.has("cli.js")) throw new Error("esbuild produced no cli.js")
  const relative = path.relative(process.cwd(), distDir) || distDir
  if (same(files, current())) {
    process.stderr.write(`refpay sandbox: ${relative} is up to date\n`)
  } else {
    install(files)
    process.stderr.write(`refpay sandbox: built ${relative} (${files.size} files, ${Date.now() - started} ms)\n`)
  }
  // The plugin itself is built by `medusa plugin:build` (`npm run build`, and prepublishOnly before a publish).
  if (!fs.existsSync(path.join(root, ".medusa", "server", "src"))) {
    process.stderr.write(
      "refpay sandbox: warning: .medusa/server is missing; run `npm run build` before packing the plugin\n"
    )
  }
}

if (require.main === module) {
  try {
    main()
  } catch (error) {
    process.stderr.write(`refpay sandbox: build failed: ${error.message}\n`)
    process.exit(1)
  }
}

module.exports = { compile, distDir }

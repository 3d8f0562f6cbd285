#!/usr/bin/env node
"use strict"
// Builds `medusa-payment-refpay/storefront` (storefront-kit/src, React components for a shop's storefront) into
// storefront-kit/dist, which the package ships: one ESM file per source file (esbuild, JSX for React's automatic
// runtime, `"use client"` kept for Next.js's App Router), the .d.ts declarations (tsc), styles.css, and a
// package.json marking the folder as ESM without side effects but its CSS, so a bundler keeps only what a page uses.
// Run by `npm run build` and by `prepack` (so `npm pack`, the demo and the packed-package test always ship a fresh
// build). Skipped when dist is newer than every source; otherwise written beside dist and swapped in with renames,
// so a concurrent `npm pack` (two demo stacks) never reads a half-written folder. Output on stderr: `npm pack
// --json` prints its JSON on stdout.

const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")

const root = path.resolve(__dirname, "..")
const kitDir = path.join(root, "storefront-kit")
const sourceDir = path.join(kitDir, "src")
const distDir = path.join(kitDir, "dist")
const STAMP = ".build-stamp"

function sources() {
  return fs
    .readdirSync(sourceDir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(sourceDir, e.name))
}

function upToDate() {
  const stamp = path.join(distDir, STAMP)
  if (!fs.existsSync(stamp)) return false
  const built = fs.statSync(stamp).mtimeMs
  const inputs = [...sources(), path.join(kitDir, "tsconfig.json"), __filename]
  return inputs.every((file) => fs.statSync(file).mtimeMs < built)
}

function build() {
  const tmp = `${distDir}.tmp-${process.pid}`
  fs.rmSync(tmp, { recursive: true, force: true })
  fs.mkdirSync(tmp, { recursive: true })
  const esbuild = require("esbuild")
  esbuild.buildSync({
    entryPoints: sources().filter((f) => /\.tsx?$/.test(f)),
    outdir: tmp,
    outbase: sourceDir,
    bundle: false,
    format: "esm",
    jsx: "automatic",
    target: "es2020",
    logLevel: "warning",
  })
  const tsc = require.resolve("typescript/bin/tsc", { paths: [root] })
  const types = spawnSync(process.execPath, [tsc, "-p", path.join(kitDir, "tsconfig.json"), "--outDir", tmp], {
    encoding: "utf8",
  })
  if (types.status !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true })
    throw new Error(`tsc (storefront declarations) failed:\n${types.stdout}${types.stderr}`)
  }
  fs.copyFileSync(path.join(sourceDir, "styles.css"), path.join(tmp, "styles.css"))
  fs.writeFileSync(
    path.join(tmp, "package.json"),
    `${JSON.stringify({ type: "module", sideEffects: ["*.css"] }, null, 2)}\n`
  )
  fs.writeFileSync(path.join(tmp, STAMP), `${new Date().toISOString()}\n`)
  const old = `${distDir}.old-${process.pid}`
  if (fs.existsSync(distDir)) fs.renameSync(distDir, old)
  fs.renameSync(tmp, distDir)
  fs.rmSync(old, { recursive: true, force: true })
}

if (require.main === module) {
  if (upToDate()) process.stderr.write("storefront-kit/dist is up to date\n")
  else {
    build()
    process.stderr.write("built storefront-kit/dist\n")
  }
}

module.exports = { buildStorefront: () => (upToDate() ? false : (build(), true)) }

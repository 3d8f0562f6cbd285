#!/usr/bin/env node
"use strict"
// In this repository: the TypeScript sources through ts-node, so an edit is live at once and a stale build never
// runs. In the published package (no sandbox/src): the CommonJS build in sandbox/dist, made by `prepack`
// (scripts/build-sandbox.js), which needs nothing but Node and the package's dependencies (zod, jose).
const fs = require("node:fs")
const path = require("node:path")

const sources = path.join(__dirname, "..", "src", "cli.ts")
const compiled = path.join(__dirname, "..", "dist", "cli.js")

function canRunSources() {
  if (!fs.existsSync(sources)) return false
  try {
    require.resolve("ts-node")
    return true
  } catch {
    return false // a checkout installed without its devDependencies: the build, if there is one
  }
}

if (canRunSources()) {
  require("ts-node").register({
    transpileOnly: true,
    swc: true,
    project: path.join(__dirname, "..", "tsconfig.json"),
    compilerOptions: { module: "commonjs" },
  })
  require(sources)
} else if (fs.existsSync(compiled)) {
  require(compiled)
} else {
  process.stderr.write(
    `refpay-sandbox: ${compiled} is missing (the package was packed without its prepack build; in a checkout, run npm run build:sandbox)\n`
  )
  process.exitCode = 1
}

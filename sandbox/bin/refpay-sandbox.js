#!/usr/bin/env node
"use strict"
// Runs the compiled sandbox when published (sandbox/dist), else the TypeScript sources through ts-node.
const fs = require("node:fs")
const path = require("node:path")

const compiled = path.join(__dirname, "..", "dist", "cli.js")
if (fs.existsSync(compiled)) {
  require(compiled)
} else {
  require("ts-node").register({
    transpileOnly: true,
    swc: true,
    project: path.join(__dirname, "..", "tsconfig.json"),
    compilerOptions: { module: "commonjs" },
  })
  require(path.join(__dirname, "..", "src", "cli.ts"))
}

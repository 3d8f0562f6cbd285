#!/usr/bin/env node
"use strict"
// `npm run bench [-- --json]`: installs what is missing, then runs bench/run.ts (TypeScript through ts-node + swc).
const path = require("node:path")

const root = path.resolve(__dirname, "..")
require("./lib/dependencies").ensureDependencies(root)
require("ts-node").register({
  transpileOnly: true,
  swc: true,
  project: path.join(root, "tsconfig.json"),
  compilerOptions: { module: "commonjs" },
})
require(path.join(root, "bench", "run.ts"))

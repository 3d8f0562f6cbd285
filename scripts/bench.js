#!/usr/bin/env node
"use strict"
// `npm run bench [-- --json] [-- --quick] [-- --only=client,checkout,webhooks,poll] [-- --cpu-prof]`: installs what
// is missing, then runs bench/run.ts (TypeScript through ts-node + swc) in a Node with --expose-gc, so heap figures
// are taken after a forced garbage collection.
const { spawnSync } = require("node:child_process")
const path = require("node:path")

const root = path.resolve(__dirname, "..")
if (typeof global.gc !== "function") {
  require("./lib/dependencies").ensureDependencies(root)
  const result = spawnSync(process.execPath, ["--expose-gc", __filename, ...process.argv.slice(2)], { stdio: "inherit" })
  process.exit(result.status ?? 1)
}
require("ts-node").register({
  transpileOnly: true,
  swc: true,
  project: path.join(root, "tsconfig.json"),
  compilerOptions: { module: "commonjs" },
})
require(path.join(root, "bench", "run.ts"))

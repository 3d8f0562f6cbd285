#!/usr/bin/env node
"use strict"
// `npm run bench [-- --json] [-- --quick] [-- --only=client,checkout,webhooks,poll] [-- --cpu-prof]`: installs what
// is missing, then runs bench/run.ts (TypeScript through ts-node + swc) in a Node with --expose-gc, so heap figures
// are taken after a forced garbage collection.
const { spawn } = require("node:child_process")
const path = require("node:path")

const root = path.resolve(__dirname, "..")
if (typeof global.gc !== "function") {
  require("./lib/dependencies").ensureDependencies(root)
  const child = spawn(process.execPath, ["--expose-gc", __filename, ...process.argv.slice(2)], { stdio: "inherit" })
  // A signal to this process reaches the bench, which stops what it started before it exits.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal))
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 130 : 1)))
  return
}
require("ts-node").register({
  transpileOnly: true,
  swc: true,
  project: path.join(root, "tsconfig.json"),
  compilerOptions: { module: "commonjs" },
})
require(path.join(root, "bench", "run.ts"))

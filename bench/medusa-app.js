"use strict"
// Entry of the Medusa app the bench drives (a child process of `npm run bench`): TypeScript through ts-node + swc,
// as scripts/bench.js does, then bench/medusa-app-main.ts.
const path = require("node:path")

const root = path.resolve(__dirname, "..")
require("ts-node").register({
  transpileOnly: true,
  swc: true,
  project: path.join(root, "tsconfig.json"),
  compilerOptions: { module: "commonjs" },
})
require(path.join(__dirname, "medusa-app-main.ts"))

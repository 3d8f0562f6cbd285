"use strict"
// One demo stack for the whole browser phase (jest's globalSetup and globalTeardown, in jest's own process): the
// suites run one after another (--runInBand) and each opens its own chromium on it. Starting the demo is most of a
// suite's cost (about 45 s once built), and nothing a suite does to the demo's data stops another's from holding:
// every suite places its own orders.
const fs = require("node:fs")
const path = require("node:path")
const { startDemo } = require("../scripts/lib/demo-stack")

const root = path.resolve(__dirname, "..")
const artifacts = path.join(root, ".test-artifacts")
const logFile = path.join(artifacts, "e2e-demo.log")
/** How the suites find the demo: its info, as JSON. */
const DEMO_ENV = "REFPAY_E2E_DEMO"
/** Where globalTeardown finds the running demo (jest runs both in the same context). */
const RUNNING = Symbol.for("medusa-payment-refpay.e2e-demo")

async function setup() {
  fs.mkdirSync(path.join(artifacts, "screenshots"), { recursive: true })
  fs.writeFileSync(logFile, "")
  const log = (line) => fs.appendFileSync(logFile, `${line}\n`)
  const demo = await startDemo({ root, ephemeral: true, port: 0, storefrontPort: 0, sandboxPort: 0, log })
  log(`ready: ${JSON.stringify(demo.timings)}`)
  globalThis[RUNNING] = demo
  process.env[DEMO_ENV] = JSON.stringify(demo.info)
}

async function teardown() {
  const demo = globalThis[RUNNING]
  if (!demo) return
  // The ephemeral data dir goes away with the demo: keep its logs for whoever reads a failure.
  fs.cpSync(demo.logsDir, path.join(artifacts, "e2e-demo-logs"), { recursive: true })
  await demo.stop()
  delete globalThis[RUNNING]
}

module.exports = { setup, teardown, DEMO_ENV, logFile }

"use strict"
// The browser phase's demo stacks (jest's globalSetup and globalTeardown, in jest's own process): one per jest worker
// (REFPAY_E2E_STACKS, 1 by default; `npm test` runs two workers on two stacks when it runs every browser suite), each
// suite on its worker's stack with a chromium of its own. A worker runs its suites one after another, so a stack
// serves one suite at a time. Starting a stack is most of a suite's cost (about 45 s once built), and nothing a suite
// does to a demo's data stops another's from holding: every suite places its own orders.
const fs = require("node:fs")
const path = require("node:path")
const { startDemo } = require("../scripts/lib/demo-stack")

const root = path.resolve(__dirname, "..")
const artifacts = path.join(root, ".test-artifacts")
const logFile = path.join(artifacts, "e2e-demo.log")
/** How the suites find their demo: the stacks' info, as a JSON array (a worker's is at JEST_WORKER_ID - 1). */
const DEMO_ENV = "REFPAY_E2E_DEMO"
/** Where globalTeardown finds the running demos (jest runs both in the same context). */
const RUNNING = Symbol.for("medusa-payment-refpay.e2e-demo")

/** Stack `index`'s log (the first keeps the name it always had) and, after the phase, its logs folder. */
const stackLog = (index) => (index === 0 ? logFile : path.join(artifacts, `e2e-demo-${index + 1}.log`))
const stackLogsDir = (index) => path.join(artifacts, index === 0 ? "e2e-demo-logs" : `e2e-demo-logs-${index + 1}`)

function stackCount() {
  const count = Number(process.env.REFPAY_E2E_STACKS ?? 1)
  if (!Number.isInteger(count) || count < 1 || count > 4) throw new Error("REFPAY_E2E_STACKS must be 1 to 4")
  return count
}

function startStack(index, onBuilt) {
  fs.writeFileSync(stackLog(index), "")
  const log = (line) => fs.appendFileSync(stackLog(index), `${line}\n`)
  return startDemo({ root, ephemeral: true, port: 0, storefrontPort: 0, sandboxPort: 0, log, onBuilt }).then((demo) => {
    log(`ready: ${JSON.stringify(demo.timings)}`)
    return demo
  })
}

async function setup() {
  fs.mkdirSync(path.join(artifacts, "screenshots"), { recursive: true })
  // The first stack builds (the plugin into demo/, then `medusa build`) if it must; the others start once it has
  // built, beside it, on that build.
  let built
  const builtOnce = new Promise((resolve) => (built = resolve))
  const first = startStack(0, () => built())
  const others = Array.from({ length: stackCount() - 1 }, (_, i) =>
    Promise.race([builtOnce, first]).then(() => startStack(i + 1))
  )
  const started = await Promise.allSettled([first, ...others])
  const demos = started.filter((s) => s.status === "fulfilled").map((s) => s.value)
  const failed = started.find((s) => s.status === "rejected")
  if (failed) {
    await Promise.all(demos.map((demo) => demo.stop()))
    throw failed.reason
  }
  globalThis[RUNNING] = demos
  process.env[DEMO_ENV] = JSON.stringify(demos.map((demo) => demo.info))
}

async function teardown() {
  const demos = globalThis[RUNNING]
  if (!demos) return
  // The ephemeral data dirs go away with the demos: keep their logs for whoever reads a failure.
  demos.forEach((demo, index) => fs.cpSync(demo.logsDir, stackLogsDir(index), { recursive: true }))
  await Promise.all(demos.map((demo) => demo.stop()))
  delete globalThis[RUNNING]
}

module.exports = { setup, teardown, DEMO_ENV, logFile }

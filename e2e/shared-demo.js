"use strict"
// The browser phase's demo stacks (jest's globalSetup and globalTeardown, in jest's own process): one per jest worker
// (REFPAY_E2E_STACKS, 1 by default, `npm test` included: a second stack costs more CPU than it saves time), each
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

function startStack(index, options = {}) {
  fs.writeFileSync(stackLog(index), "")
  const log = (line) => fs.appendFileSync(stackLog(index), `${line}\n`)
  return startDemo({ root, ephemeral: true, port: 0, storefrontPort: 0, sandboxPort: 0, log, ...options }).then(
    (demo) => {
      log(`ready: ${JSON.stringify(demo.timings)}`)
      return demo
    }
  )
}

async function setup() {
  fs.mkdirSync(path.join(artifacts, "screenshots"), { recursive: true })
  // The first stack builds (the plugin into demo/, then `medusa build`) if it must, migrates and seeds; the others
  // start once it has, each on a copy of its seeded database on its PostgreSQL (a file copy instead of a migration
  // and a seed of their own: about 20 CPU-seconds a stack), beside it.
  const count = stackCount()
  let seeded
  const copies = new Promise((resolve) => (seeded = resolve))
  const first = startStack(0, {
    onSeeded: async (copy) => {
      const made = []
      for (let i = 1; i < count; i++) made.push(await copy(`refpay_demo_${i + 1}`))
      seeded(made)
    },
  })
  const others = Array.from({ length: count - 1 }, (_, i) =>
    Promise.race([copies, first]).then((made) => {
      if (!Array.isArray(made)) throw new Error("the first demo stack started without making the others' databases")
      return startStack(i + 1, { database: made[i] })
    })
  )
  const started = await Promise.allSettled([first, ...others])
  const demos = started.filter((s) => s.status === "fulfilled").map((s) => s.value)
  const failed = started.find((s) => s.status === "rejected")
  if (failed) {
    await stopAll(demos)
    throw failed.reason
  }
  globalThis[RUNNING] = demos
  process.env[DEMO_ENV] = JSON.stringify(demos.map((demo) => demo.info))
}

/** The first stack last: the others run on its PostgreSQL. */
async function stopAll(demos) {
  const [first, ...others] = demos
  await Promise.all(others.map((demo) => demo.stop()))
  await first?.stop()
}

async function teardown() {
  const demos = globalThis[RUNNING]
  if (!demos) return
  // The ephemeral data dirs go away with the demos: keep their logs for whoever reads a failure.
  demos.forEach((demo, index) => fs.cpSync(demo.logsDir, stackLogsDir(index), { recursive: true }))
  await stopAll(demos)
  delete globalThis[RUNNING]
}

module.exports = { setup, teardown, DEMO_ENV, logFile }

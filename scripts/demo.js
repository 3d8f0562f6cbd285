#!/usr/bin/env node
"use strict"
// `npm run demo`: a Portuguese Medusa shop with REFPAY, its admin, a storefront page and the REFPAY sandbox, in one
// command. Installs what is missing, keeps the database in .demo/ between runs, and stops everything on Ctrl-C.
//
//   npm run demo                         shop :9000 (admin /app), storefront :8000, sandbox :4010
//   npm run demo -- --reset              start from an empty database
//   npm run demo -- --port 9100 --storefront-port 8100 --sandbox-port 4110
//   npm run demo -- --data-dir DIR       keep the database and logs in DIR instead of .demo/
//   npm run demo -- --ephemeral          a throwaway database, removed on exit
//   npm run demo -- --servers 2          Redis and two Medusa servers behind a round-robin load balancer on :9000
//   npm run demo -- --servers 2 --worker two servers in server mode plus one worker process (Medusa's production set-up)

const path = require("node:path")

const root = path.resolve(__dirname, "..")

const USAGE = `Usage: npm run demo -- [options]

  --port <n>             Medusa (shop API and admin), default 9000
  --storefront-port <n>  storefront page, default 8000
  --sandbox-port <n>     REFPAY sandbox, default 4010
  --data-dir <dir>       where the database, logs and demo.json live (default .demo)
  --ephemeral            throwaway database in a temp folder, removed on exit
  --reset                remove the kept database first and seed again
  --servers <n>          run n Medusa servers (default 1); 2 or more adds Redis (Debian's redis-server) and a
                         round-robin load balancer on --port, so the storefront, admin and webhooks use them all
  --worker               with --servers: one more Medusa process in worker mode (scheduled jobs, subscribers);
                         the servers then run in server mode
  --help                 this text

A port of 0 picks any free one. Everything listens on loopback only.`

function parseArgs(argv) {
  const options = { root }
  const ports = { "--port": "port", "--storefront-port": "storefrontPort", "--sandbox-port": "sandboxPort" }
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2)
    const value = () => {
      const v = inline ?? argv[++i]
      if (v === undefined) throw new Error(`${flag} needs a value`)
      return v
    }
    if (flag === "--help" || flag === "-h") options.help = true
    else if (flag === "--reset") options.reset = true
    else if (flag === "--ephemeral") options.ephemeral = true
    else if (flag === "--worker") options.worker = true
    else if (flag === "--servers") {
      const v = value()
      if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 8)
        throw new Error(`--servers must be a number from 1 to 8, got "${v}"`)
      options.servers = Number(v)
    } else if (flag === "--data-dir") options.dataDir = path.resolve(value())
    else if (ports[flag]) {
      const v = value()
      if (!/^\d+$/.test(v) || Number(v) > 65535) throw new Error(`${flag} must be a port number, got "${v}"`)
      options[ports[flag]] = Number(v)
    } else throw new Error(`Unknown option ${argv[i]}\n\n${USAGE}`)
  }
  return options
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`
}

function banner(demo) {
  const { info, timings, logsDir, infoFile } = demo
  return `
REFPAY demo is ready (${seconds(timings.total)}).

  Storefront   ${info.storefront_url}
               pick a product, place the order with REFPAY, then "Simular pagamento"
  Admin        ${info.admin_url}
               ${info.admin_email} / ${info.admin_password}   (fake demo credentials)
  Shop API     ${info.shop_url}   publishable key ${info.publishable_key}
  Sandbox      ${info.sandbox_url}   e.g. curl -X POST ${info.sandbox_url}/__sandbox/payments/<payment_id>/pay
${servers(info)}
  Logs in ${path.relative(process.cwd(), logsDir) || logsDir}/, details in ${path.relative(process.cwd(), infoFile) || infoFile}
  Press Ctrl-C to stop everything.
`
}

/** With --servers: which process is where, behind the load balancer. */
function servers(info) {
  if (!info.servers) return ""
  const lines = info.servers.map(
    (s) =>
      `               ${s.name.padEnd(9)} ${s.mode.padEnd(7)} ${s.url}${s.mode === "worker" ? "   (jobs and subscribers, no routes)" : ""}`
  )
  return `  Servers      ${info.shop_url} is a round-robin load balancer; Redis ${info.redis_url}\n${lines.join("\n")}\n`
}

async function main() {
  let options
  try {
    options = parseArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`[demo] ${error.message}`)
    process.exit(2)
  }
  if (options.help) {
    console.log(USAGE)
    return
  }
  const log = (line) => console.log(`[demo] ${line}`)
  log("checking npm dependencies...")
  require("./lib/dependencies").ensureDependencies(root, log)
  const { startDemo } = require("./lib/demo-stack")

  // Ctrl-C while starting aborts the start-up: startDemo stops what already runs and rejects.
  const startup = new AbortController()
  let demo = null
  let exiting = 0 // when the shutdown began
  const shutdown = async (reason, code) => {
    if (exiting) return
    exiting = Date.now()
    log(`${reason}: stopping Medusa, the storefront, the sandbox${demo?.cluster ? ", Redis" : ""} and PostgreSQL...`)
    await demo?.stop()
    log("stopped.")
    process.exit(code)
  }
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      // `npm run` forwards the terminal's Ctrl-C, so one keypress can arrive twice: only a later one forces.
      if (exiting && Date.now() - exiting > 2000) {
        log("second Ctrl-C: killing everything now")
        demo?.killAll()
        process.exit(130)
      }
      if (exiting) return
      if (demo) return void shutdown(signal, 0)
      exiting = Date.now()
      log(`${signal} while starting: stopping what already runs...`)
      startup.abort()
    })
  }
  process.on("exit", () => demo?.killAll())

  try {
    demo = await startDemo({ ...options, log, signal: startup.signal })
  } catch (error) {
    if (error.name === "InterruptedError") {
      log("stopped.")
      process.exit(130)
    }
    console.error(`\n[demo] could not start: ${error.message}`)
    process.exit(1)
  }
  const t = demo.timings
  log(
    `timings: plugin ${seconds(t.plugin)}, build+postgres ${seconds(t.build_and_postgres)}, sandbox ${seconds(t.sandbox)}, ` +
      `migrations+seed ${seconds(t.database)}, medusa start ${seconds(t.medusa_start)}`
  )
  console.log(banner(demo))
  const which = await demo.whenSomethingExits()
  await shutdown(`${which} exited on its own (see ${demo.logsDir})`, 1)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

"use strict"
// Everything `npm run demo` runs, as one function the e2e tests call too:
//
//   const demo = await startDemo({ root, ephemeral: true, port: 0, storefrontPort: 0, sandboxPort: 0 })
//   ... demo.info.shop_url, demo.info.publishable_key ...
//   await demo.stop()
//
// Order: plugin (build, pack, install into demo/) -> PostgreSQL + `medusa build` -> REFPAY sandbox -> migrations
// and seed -> `medusa start` -> storefront. Everything listens on loopback only; a port of 0 means any free one.
// With `servers: 2` (or more): Redis too, before the migrations, and that many `medusa start` processes behind a
// round-robin load balancer on the shop's port (scripts/lib/demo-cluster.js).

const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { freePort, startPostgres } = require("./postgres")
const { buildPlugin, checkEntryPoints, installPlugin, packPlugin } = require("./demo-plugin")
const {
  assertPortFree,
  isRunning,
  killNow,
  startSandboxUntilListening,
  stopProcess,
  throwIfInterrupted,
} = require("./demo-processes")
const { buildInputsHash, buildShop, copyDatabase, ensureDatabase, prepareDatabase, startShop } = require("./demo-shop")
const { startCluster } = require("./demo-cluster")
const { startRedis } = require("./redis")
const { startStorefront } = require("./demo-storefront")

const DATABASE = "refpay_demo"
/** Demo-only values: fake, printed, never used outside this machine. */
const DEMO_SECRETS = {
  JWT_SECRET: "demo-jwt-secret-not-secret",
  COOKIE_SECRET: "demo-cookie-secret-not-secret",
  REFPAY_WEBHOOK_SECRET: "demo-webhook-secret-not-secret",
}
const ADMIN = { email: "admin@refpay-demo.test", password: "demo-password-not-secret" }
const DEFAULT_PORTS = { port: 9000, storefrontPort: 8000, sandboxPort: 4010 }

async function choosePort(wanted, flag) {
  if (wanted === 0) return freePort()
  await assertPortFree(wanted, flag)
  return wanted
}

function origins(port) {
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`]
}

/** The environment of every Medusa command: database, CORS, secrets and the REFPAY_* settings of the sandbox. */
function shopEnvironment({ ports, postgresPort, database = DATABASE }) {
  const sandbox = `http://localhost:${ports.sandbox}`
  const env = { ...process.env }
  delete env.NODE_ENV // `medusa build` and `db:migrate` default to development; `start` is given production.
  return {
    ...env,
    MEDUSA_DISABLE_TELEMETRY: "true",
    DATABASE_URL: `postgres://postgres@localhost:${postgresPort}/${database}`,
    STORE_CORS: origins(ports.storefront).join(","),
    // Where the demo's e-mails link a requested reference's payment page (the mailbox renders them with it).
    MEDUSA_STOREFRONT_URL: `http://localhost:${ports.storefront}`,
    ADMIN_CORS: origins(ports.shop).join(","),
    AUTH_CORS: [...origins(ports.shop), ...origins(ports.storefront)].join(","),
    JWT_SECRET: DEMO_SECRETS.JWT_SECRET,
    COOKIE_SECRET: DEMO_SECRETS.COOKIE_SECRET,
    REFPAY_ENVIRONMENT: "sandbox",
    REFPAY_TOKEN_INTERFACE: "t1",
    REFPAY_AUTH_URL: `${sandbox}/auth`,
    REFPAY_BACKOFFICE_URL: `${sandbox}/backoffice`,
    REFPAY_PAYMENTS_URL: sandbox,
    REFPAY_CLIENT_ID: "sandbox-client-id",
    REFPAY_CLIENT_SECRET: "sandbox-client-secret",
    REFPAY_WEBHOOK_SECRET: DEMO_SECRETS.REFPAY_WEBHOOK_SECRET,
    REFPAY_DEMO_ADMIN_EMAIL: ADMIN.email,
    REFPAY_DEMO_ADMIN_PASSWORD: ADMIN.password,
  }
}

/**
 * How the demo starts the sandbox CLI. The webhook secret goes through the environment: a command line is visible
 * to every user in `ps`, and startProcess writes it into the log. `stateFile` keeps the sandbox's payments across
 * demo restarts, so references shown before a restart stay payable.
 */
function sandboxLaunch({ root, port, webhookUrl, stateFile }) {
  return {
    command: process.execPath,
    args: [
      path.join(root, "sandbox", "bin", "refpay-sandbox.js"),
      "--port",
      String(port),
      "--webhook-url",
      webhookUrl,
      "--state",
      stateFile,
    ],
    env: { ...process.env, NODE_ENV: "development", REFPAY_SANDBOX_WEBHOOK_SECRET: DEMO_SECRETS.REFPAY_WEBHOOK_SECRET },
  }
}

/** The sandbox CLI as a child process; resolves with it once it prints its listening line. */
function startSandboxProcess({ root, port, webhookUrl, stateFile, logFile }) {
  const launch = sandboxLaunch({ root, port, webhookUrl, stateFile })
  return startSandboxUntilListening(launch.command, launch.args, { cwd: root, env: launch.env, logFile })
}

/**
 * Starts the whole demo and resolves once every part answers.
 * @param {object} options
 * @param {string} options.root            repository root
 * @param {number} [options.port]          Medusa (default 9000; 0 = any free port)
 * @param {number} [options.storefrontPort] storefront (default 8000)
 * @param {number} [options.sandboxPort]   REFPAY sandbox (default 4010)
 * @param {string} [options.dataDir]       kept state (default <root>/.demo): pgdata, logs, state.json, demo.json,
 *                                          sandbox.json (the REFPAY sandbox's state file)
 * @param {boolean} [options.ephemeral]    a throwaway data dir, removed on stop
 * @param {boolean} [options.reset]        start from an empty database
 * @param {AbortSignal} [options.signal]   aborting it stops the start-up: what runs is stopped, the promise rejects
 *                                          with an InterruptedError
 * @param {number} [options.servers]       HTTP servers (default 1); more than one adds Redis and the load balancer
 * @param {boolean} [options.worker]       with servers: one more process in worker mode, the servers in server mode
 * @param {boolean} [options.redisPersistent] with servers: Redis keeps its data on disk (append-only file, every write
 *                                          synced), so a killed Redis comes back with it, as a production Redis does
 * @param {Record<string, string>} [options.shopEnv] extra environment for every Medusa process (tests)
 * @param {() => void} [options.onBuilt]   called once the plugin is installed in demo/ and the shop built: from then
 *                                          on another stack may start beside this one (they share that build)
 * @param {(copy: (name: string) => Promise<object>) => Promise<void>} [options.onSeeded] called once the database is
 *                                          migrated and seeded, before Medusa starts on it: `copy(name)` makes a
 *                                          copy of it on the same PostgreSQL (a template copy, no migrations) and
 *                                          resolves with what another stack's `database` option takes
 * @param {{ postgres: object, name: string, seed: object, plugin: object }} [options.database] a migrated and
 *                                          seeded database another stack made (its `onSeeded` copy): this stack
 *                                          starts no PostgreSQL, packs no plugin and runs no migrations or seed
 *                                          (single-server stacks only; that stack stops the PostgreSQL)
 * @param {(line: string) => void} [options.log]
 */
async function startDemo(options) {
  const root = options.root
  const log = options.log ?? ((line) => console.log(line))
  const signal = options.signal
  const demoDir = path.join(root, "demo")
  const ephemeral = Boolean(options.ephemeral)
  const dataDir = ephemeral
    ? fs.mkdtempSync(path.join(os.tmpdir(), "refpay-demo-"))
    : path.resolve(options.dataDir ?? path.join(root, ".demo"))
  // mkdtemp makes it 0700: as root, PostgreSQL runs as `postgres` and must reach <dataDir>/pgdata.
  if (ephemeral) fs.chmodSync(dataDir, 0o755)
  const logsDir = path.join(dataDir, "logs")
  const stateFile = path.join(dataDir, "state.json")
  // The sandbox's own state (payments, idempotency records, clock): kept like the database, removed by --reset.
  const sandboxStateFile = path.join(dataDir, "sandbox.json")
  const infoFile = path.join(dataDir, "demo.json")
  const timings = {}
  const started = Date.now()
  const step = async (name, label, work) => {
    throwIfInterrupted(signal)
    const t0 = Date.now()
    if (label) log(`• ${label}`)
    const result = await work()
    timings[name] = Date.now() - t0
    return result
  }

  if (options.reset) {
    log(`• --reset: removing the demo database and state in ${dataDir}`)
    for (const entry of ["pgdata", "state.json", "demo.json", "sandbox.json", "mailbox.json"])
      fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true })
    // Where scripts/lib/postgres.js keeps the data when the postgres account cannot reach <dataDir>/pgdata.
    const wanted = path.join(dataDir, "pgdata")
    fs.rmSync(path.join(os.tmpdir(), `refpay-pg-${Buffer.from(wanted).toString("hex").slice(-24)}`), {
      recursive: true,
      force: true,
    })
  }
  fs.mkdirSync(logsDir, { recursive: true })
  fs.rmSync(infoFile, { force: true })

  const clustered = (options.servers ?? 1) > 1 || Boolean(options.worker)
  const given = options.database ?? null
  if (given && clustered) throw new Error("A stack of several servers prepares its own database")
  const running = { postgres: null, redis: null, sandbox: null, shop: null, cluster: null, storefront: null }
  let stopping = null
  const stop = () => {
    if (!stopping) {
      stopping = (async () => {
        fs.rmSync(infoFile, { force: true })
        await running.storefront?.close()
        await stopProcess(running.shop, 15_000)
        await running.cluster?.stop()
        await stopProcess(running.sandbox, 5_000)
        await running.redis?.stop()
        await running.postgres?.stop()
        if (ephemeral) fs.rmSync(dataDir, { recursive: true, force: true })
      })()
    }
    return stopping
  }
  /** For `process.on("exit")`: kills what is left, synchronously. */
  const killAll = () => {
    killNow(running.shop)
    running.cluster?.killNow()
    killNow(running.sandbox)
    running.redis?.killNow()
    running.postgres?.killNow()
  }

  try {
    const ports = {
      shop: await choosePort(options.port ?? DEFAULT_PORTS.port, "--port"),
      storefront: await choosePort(options.storefrontPort ?? DEFAULT_PORTS.storefrontPort, "--storefront-port"),
      sandbox: await choosePort(options.sandboxPort ?? DEFAULT_PORTS.sandboxPort, "--sandbox-port"),
    }
    const postgresPort = given ? given.postgres.port : await freePort()
    const env = {
      ...shopEnvironment({ ports, postgresPort, database: given?.name }),
      DEMO_MAILBOX_FILE: path.join(dataDir, "mailbox.json"),
      ...options.shopEnv,
    }
    const medusaCli = require.resolve("@medusajs/cli/cli.js", { paths: [root] })

    const plugin = await step(
      "plugin",
      given ? null : "building the plugin (medusa plugin:build, skipped when up to date)...",
      async () => {
        // A stack on another stack's database comes after that stack installed the plugin into demo/.
        if (given) return given.plugin
        await buildPlugin({
          root,
          medusaCli,
          env,
          logFile: path.join(logsDir, "plugin-build.log"),
          log: (line) => log(`  ${line}`),
          signal,
        })
        const packed = packPlugin({ root, packDir: path.join(root, ".demo", "pack") })
        const installed = installPlugin({ demoDir, tarball: packed.tarball, sha256: packed.sha256 })
        checkEntryPoints(demoDir)
        log(
          `  ${installed ? "installed" : "already installed"}: ${path.relative(root, packed.tarball)} -> demo/node_modules/medusa-payment-refpay (sha256 ${packed.sha256.slice(0, 12)})`
        )
        return packed
      }
    )
    const inputsHash = buildInputsHash({ root, demoDir, pluginSha256: plugin.buildSha256 })
    let databaseId = null

    await step(
      "build_and_postgres",
      "building the shop and admin (medusa build, cached) and starting PostgreSQL...",
      async () => {
        const build = buildShop({
          demoDir,
          medusaCli,
          env,
          inputsHash,
          logFile: path.join(logsDir, "medusa-build.log"),
          signal,
        }).then((built) => {
          log(built ? "  medusa build done" : "  shop build is up to date: skipping medusa build")
        })
        const database = given
          ? Promise.resolve(log(`  PostgreSQL of another stack, database ${given.name}`))
          : startPostgres({
              dataDir: path.join(dataDir, "pgdata"),
              keepData: !ephemeral,
              port: postgresPort,
              log: (line) => log(`  ${line}`),
              logFile: path.join(logsDir, "postgres.log"),
            }).then(async (postgres) => {
              running.postgres = postgres
              databaseId = await ensureDatabase({ root, postgres, database: DATABASE })
              log(`  PostgreSQL on localhost:${postgresPort} (data in ${postgres.dataDir})`)
            })
        const results = await Promise.allSettled([build, database])
        const failed = results.find((result) => result.status === "rejected")
        if (failed) throw failed.reason
      }
    )
    options.onBuilt?.()

    const shopUrl = `http://localhost:${ports.shop}`
    await step("sandbox", "starting the REFPAY sandbox...", async () => {
      running.sandbox = await startSandboxProcess({
        root,
        port: ports.sandbox,
        webhookUrl: `http://127.0.0.1:${ports.shop}/hooks/refpay`,
        stateFile: sandboxStateFile,
        logFile: path.join(logsDir, "sandbox.log"),
      })
    })

    if (clustered) {
      // Before the migrations: with REDIS_URL set, the Redis workflow engine brings its own tables.
      await step(
        "redis",
        `starting Redis (Debian's redis-server, ${options.redisPersistent ? "append-only file" : "saving off"})...`,
        async () => {
          running.redis = await startRedis({
            log: (line) => log(`  ${line}`),
            logFile: path.join(logsDir, "redis.log"),
            persistent: options.redisPersistent,
          })
          env.REDIS_URL = running.redis.url
          log(`  Redis on ${running.redis.url}`)
        }
      )
    }

    const seed = await step("database", null, () =>
      given
        ? given.seed
        : prepareDatabase({
            demoDir,
            medusaCli,
            env,
            databaseId,
            stateFile,
            logFile: path.join(logsDir, "medusa-setup.log"),
            log: (line) => log(`• ${line}`),
            signal,
            // The Redis modules have migrations of their own: switching between one and several servers migrates again.
            inputsHash: clustered ? `${inputsHash}+redis` : inputsHash,
          })
    )
    if (options.onSeeded && !given) {
      const postgres = running.postgres
      await options.onSeeded(async (name) => {
        await copyDatabase({ root, postgres, from: DATABASE, to: name })
        return { postgres, name, seed, plugin }
      })
    }

    if (clustered) {
      const servers = Math.max(1, options.servers ?? 1)
      const roles = options.worker ? `${servers} server(s) and a worker` : `${servers} shared servers`
      await step(
        "medusa_start",
        `starting Medusa (medusa start): ${roles} behind a load balancer on ${shopUrl}...`,
        async () => {
          running.cluster = await startCluster({
            demoDir,
            medusaCli,
            env,
            servers,
            worker: Boolean(options.worker),
            port: ports.shop,
            logsDir,
            signal,
          })
        }
      )
    } else {
      await step("medusa_start", `starting Medusa (medusa start) on ${shopUrl}...`, async () => {
        running.shop = await startShop({
          demoDir,
          medusaCli,
          env,
          port: ports.shop,
          logFile: path.join(logsDir, "medusa.log"),
          signal,
        })
      })
    }

    const info = {
      shop_url: shopUrl,
      storefront_url: `http://localhost:${ports.storefront}`,
      admin_url: `${shopUrl}/app`,
      admin_email: ADMIN.email,
      admin_password: ADMIN.password,
      publishable_key: seed.publishable_key,
      region_id: seed.region_id,
      sandbox_url: `http://localhost:${ports.sandbox}`,
      database_url: env.DATABASE_URL,
      ...(running.cluster
        ? {
            redis_url: env.REDIS_URL,
            servers: running.cluster.servers.map((s) => ({ name: s.name, mode: s.mode, url: s.url })),
          }
        : {}),
    }
    await step("storefront", null, async () => {
      running.storefront = await startStorefront({
        port: ports.storefront,
        root: path.join(demoDir, "storefront"),
        sandboxUrl: `http://127.0.0.1:${ports.sandbox}`,
        config: {
          shop_url: info.shop_url,
          publishable_key: info.publishable_key,
          region_id: info.region_id,
          sandbox_path: "/sandbox",
        },
      })
    })

    throwIfInterrupted(signal)
    fs.writeFileSync(infoFile, `${JSON.stringify(info, null, 2)}\n`)
    timings.total = Date.now() - started
    return {
      info,
      infoFile,
      dataDir,
      logsDir,
      timings,
      stop,
      killAll,
      /** With several servers: their handles, the load balancer and Redis (tests kill and restart them). */
      cluster: running.cluster ? Object.assign(running.cluster, { redis: running.redis }) : null,
      /** Resolves with the name of the first long-running part that exits on its own. */
      whenSomethingExits: () =>
        new Promise((resolve) => {
          const medusa = running.cluster
            ? running.cluster.servers.map((s) => [`Medusa ${s.name}`, s.child])
            : [["Medusa", running.shop]]
          for (const [name, child] of [...medusa, ["REFPAY sandbox", running.sandbox]]) {
            if (!isRunning(child)) resolve(name)
            child.once("exit", () => resolve(name))
          }
        }),
    }
  } catch (error) {
    await stop().catch(() => undefined)
    throw error
  }
}

module.exports = { startDemo, startSandboxProcess, sandboxLaunch, ADMIN, DEFAULT_PORTS, DEMO_SECRETS }

"use strict"
// The demo shop as several `medusa start` processes of one build, on one PostgreSQL and one Redis, behind the
// round-robin load balancer (scripts/lib/load-balancer.js) on the shop's port. What a shop that outgrew one server
// runs, and what `npm run demo -- --servers 2` and the cluster tests (integration-tests/cluster) start.
//
// Roles (Medusa's `workerMode`, here through MEDUSA_WORKER_MODE, read by demo/medusa-config.ts):
//   shared  serves HTTP and runs the background work (scheduled jobs, event subscribers, workflow retries)
//   server  serves HTTP only
//   worker  runs the background work only (it still answers /health)
// `servers: 2` gives two shared servers; `servers: 2, worker: true` gives two servers plus one worker, as Medusa
// documents for production. Only servers are behind the load balancer: a worker serves no routes.

const path = require("node:path")
const { freePort } = require("./postgres")
const { isRunning, killNow, stopProcess } = require("./demo-processes")
const { startShop } = require("./demo-shop")
const { startLoadBalancer } = require("./load-balancer")

/** The processes of a topology: [{ name, mode }]. */
function clusterPlan({ servers, worker = false }) {
  const plan = []
  for (let i = 1; i <= servers; i++) plan.push({ name: `server-${i}`, mode: worker ? "server" : "shared" })
  if (worker) plan.push({ name: "worker", mode: "worker" })
  return plan
}

/**
 * One `medusa start` of the cluster. `kill()` is what a crash looks like (SIGKILL to its process group, no
 * graceful shutdown); `start()` brings it back on the same port with the same role; `redeploy(changes)` stops it as
 * a deployment does and starts it with `changes` over its environment (kept for its later starts).
 */
function serverHandle({ name, mode, port, demoDir, medusaCli, env, logsDir, signal }) {
  let child = null
  const handle = {
    name,
    mode,
    port,
    url: `http://127.0.0.1:${port}`,
    logFile: path.join(logsDir, `medusa-${name}.log`),
    get child() {
      return child
    },
    get pid() {
      return child?.pid
    },
    isRunning: () => Boolean(child) && isRunning(child),
    async start() {
      if (handle.isRunning()) return
      child = await startShop({
        demoDir,
        medusaCli,
        env: { ...env, MEDUSA_WORKER_MODE: mode },
        port,
        logFile: handle.logFile,
        signal,
      })
    },
    /** Kills the whole process group with `signalName` (default SIGKILL) and resolves once it has exited. */
    async kill(signalName = "SIGKILL") {
      if (!handle.isRunning()) return
      const exited = new Promise((resolve) => child.once("exit", resolve))
      try {
        process.kill(-child.pid, signalName)
      } catch {
        // already gone
      }
      await exited
    },
    stop: (graceMs = 15_000) => stopProcess(child, graceMs),
    async redeploy(changes) {
      await handle.stop()
      env = { ...env, ...changes }
      await handle.start()
    },
    killNow: () => killNow(child),
  }
  return handle
}

/**
 * Starts every process of the plan (in parallel) and the load balancer on `port`; resolves once all answer.
 * @param {object} options
 * @param {number} options.servers        HTTP servers
 * @param {boolean} [options.worker]      one more process in worker mode; the servers then run in server mode
 * @param {number} options.port           the load balancer's port (the shop's URL)
 * @param {object} options.env            the shop's environment, REDIS_URL included
 */
async function startCluster({ demoDir, medusaCli, env, servers, worker = false, port, logsDir, signal }) {
  if (!env.REDIS_URL)
    throw new Error("startCluster needs REDIS_URL in the environment: several servers share one Redis")
  const handles = []
  let balancer = null
  /** Starts the processes of a plan (in parallel) into `handles`; any failure stops them all and throws. */
  const startPlan = async (plan) => {
    const planEnv = { ...env, ...plan.env }
    for (const { name, mode } of clusterPlan(plan)) {
      handles.push(
        serverHandle({ name, mode, port: await freePort(), demoDir, medusaCli, env: planEnv, logsDir, signal })
      )
    }
    const results = await Promise.allSettled(handles.map((h) => h.start()))
    const failed = results.find((r) => r.status === "rejected")
    if (failed) throw failed.reason
  }
  const httpBackends = () => handles.filter((h) => h.mode !== "worker").map((h) => ({ name: h.name, url: h.url }))
  const stopServers = async () => {
    await Promise.all(handles.map((h) => h.stop()))
  }
  const stop = async () => {
    await balancer?.close()
    await stopServers()
  }
  try {
    await startPlan({ servers, worker })
    balancer = await startLoadBalancer({ port, backends: httpBackends() })
  } catch (error) {
    await stop().catch(() => undefined)
    throw error
  }
  const cluster = {
    url: balancer.url,
    balancer,
    /** The processes of the current plan (the same array across `reshape`). */
    servers: handles,
    server: (name) => {
      const found = handles.find((h) => h.name === name)
      if (!found) throw new Error(`no server named ${name}`)
      return found
    },
    /**
     * Another plan on the same database, Redis and load balancer port: every process is stopped (SIGTERM, as a
     * deployment does), the new ones started (with `plan.env` over the shop's environment), and the load balancer
     * sent to them.
     */
    async reshape(plan) {
      await stopServers()
      handles.splice(0, handles.length)
      await startPlan(plan)
      balancer.setBackends(httpBackends())
    },
    stop,
    killNow: () => handles.forEach((h) => h.killNow()),
  }
  return cluster
}

module.exports = { clusterPlan, startCluster }

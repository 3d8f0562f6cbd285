"use strict"
// A tiny round-robin HTTP load balancer on loopback, in front of several `medusa start` servers: what a shop puts
// in front of its servers (nginx, a cloud load balancer), small enough to read. Used by `npm run demo -- --servers`
// (the storefront, the admin and the sandbox's webhooks all go through it) and by the cluster tests.
//
//   const lb = await startLoadBalancer({ port: 9000, backends: [{ name: "server-1", url: "http://127.0.0.1:9101" }, ...] })
//   lb.stats()    // { "server-1": { requests, in_flight, failed }, ... }
//   lb.setBackends([...])   // another set of servers (the cluster switched between shared and worker roles)
//   await lb.close()
//
// Each request goes to the next backend in turn. A backend that refuses the connection (stopped, restarting) is
// skipped for a second and the request goes to the next one: nothing was sent, so that is always safe. A backend
// that dies after the request was sent gets a 502, as real load balancers answer: the client decides whether to
// retry. `stats()` counts, per backend, the requests it answered, those in flight and those lost with it. Request
// bodies are buffered (small JSON bodies here) so a refused request can be sent again.

const http = require("node:http")

const DOWN_MS = 1_000
const MAX_BODY_BYTES = 10 * 1024 * 1024

/** Errors that mean the backend never got the request. */
const NOT_SENT = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"])

/**
 * @param {{ port?: number, host?: string, backends: { name: string, url: string }[] }} options port 0: any free one
 */
async function startLoadBalancer({ port = 0, host = "127.0.0.1", backends }) {
  if (!backends?.length) throw new Error("startLoadBalancer needs at least one backend")
  const backendOf = (b) => ({
    name: b.name,
    url: new URL(b.url),
    agent: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    downUntil: 0,
    requests: 0,
    inFlight: new Map(), // request -> path
    failed: 0,
  })
  let pool = backends.map(backendOf)
  let next = 0

  /** The next backend not marked down, in turn; all down: the next one anyway (it may be back). */
  const pick = (tried) => {
    const now = Date.now()
    for (let i = 0; i < pool.length; i++) {
      const backend = pool[(next + i) % pool.length]
      if (!tried.has(backend) && backend.downUntil <= now) {
        next = (pool.indexOf(backend) + 1) % pool.length
        return backend
      }
    }
    const rest = pool.filter((b) => !tried.has(b))
    return rest.length ? rest[0] : null
  }

  const forward = (req, res, body, tried) => {
    const backend = pick(tried)
    if (!backend) {
      res.writeHead(502, { "content-type": "application/json" })
      res.end(JSON.stringify({ message: "no backend server could be reached" }))
      return
    }
    tried.add(backend)
    const ticket = {}
    backend.inFlight.set(ticket, req.url)
    const finish = () => backend.inFlight.delete(ticket)
    const headers = {
      ...req.headers,
      "x-forwarded-for": req.socket.remoteAddress ?? "127.0.0.1",
      "x-forwarded-host": req.headers.host ?? "",
    }
    if (body.length > 0 || req.headers["content-length"] !== undefined) headers["content-length"] = String(body.length)
    delete headers["transfer-encoding"]
    const upstream = http.request(
      {
        host: backend.url.hostname,
        port: backend.url.port,
        method: req.method,
        path: req.url,
        headers,
        agent: backend.agent,
      },
      (answer) => {
        backend.requests++
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "x-served-by": backend.name })
        answer.pipe(res)
        answer.on("end", finish)
        answer.on("error", () => {
          finish()
          res.destroy()
        })
      }
    )
    upstream.on("error", (error) => {
      finish()
      if (NOT_SENT.has(error.code) && !res.headersSent) {
        backend.downUntil = Date.now() + DOWN_MS
        return forward(req, res, body, tried)
      }
      backend.failed++
      if (res.headersSent) return res.destroy()
      res.writeHead(502, { "content-type": "application/json", "x-served-by": backend.name })
      res.end(JSON.stringify({ message: `backend ${backend.name} failed: ${error.code ?? error.message}` }))
    })
    upstream.end(body)
  }

  const server = http.createServer((req, res) => {
    const chunks = []
    let size = 0
    req.on("data", (chunk) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413).end()
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on("end", () => forward(req, res, Buffer.concat(chunks), new Set()))
  })
  server.keepAliveTimeout = 5_000
  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, resolve)
  })
  return {
    port: server.address().port,
    url: `http://${host}:${server.address().port}`,
    stats: () =>
      Object.fromEntries(
        pool.map((b) => [b.name, { requests: b.requests, in_flight: b.inFlight.size, failed: b.failed }])
      ),
    /** Replaces the servers; requests in flight finish on the old ones. */
    setBackends: (list) => {
      if (!list?.length) throw new Error("setBackends needs at least one backend")
      const old = pool
      pool = list.map(backendOf)
      next = 0
      for (const b of old) setTimeout(() => b.agent.destroy(), 60_000).unref()
    },
    /** The paths of the requests `name` is answering right now. */
    inFlight: (name) => [...(pool.find((b) => b.name === name)?.inFlight.values() ?? [])],
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections() // keep-alive sockets too: close() alone waits for them
        for (const b of pool) b.agent.destroy()
      }),
  }
}

module.exports = { startLoadBalancer }

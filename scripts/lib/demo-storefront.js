"use strict"
// The demo storefront's own little server: the static files of demo/storefront, /config.json (where the shop is,
// its publishable key and region), and /sandbox/* passed to the sandbox's /__sandbox/* controls so the page's
// "Simular pagamento" button can pay a reference. Loopback only.

const fs = require("node:fs")
const http = require("node:http")
const path = require("node:path")

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".ico": "image/x-icon",
}

function send(res, status, body, type = "text/plain; charset=utf-8") {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" })
  res.end(body)
}

function serveFile(res, root, urlPath) {
  const relative = urlPath === "/" ? "index.html" : decodeURIComponent(urlPath).replace(/^\/+/, "")
  const file = path.resolve(root, relative)
  if (!file.startsWith(root + path.sep)) return send(res, 404, "not found")
  fs.readFile(file, (error, body) => {
    if (error) return send(res, 404, "not found")
    send(res, 200, body, TYPES[path.extname(file)] ?? "application/octet-stream")
  })
}

/** Forwards /sandbox/<rest> to <sandboxUrl>/__sandbox/<rest>, method, query and JSON body included. */
function proxyToSandbox(req, res, sandboxUrl, rest) {
  const target = new URL(`/__sandbox/${rest}`, sandboxUrl)
  const upstream = http.request(
    target,
    { method: req.method, headers: { "content-type": req.headers["content-type"] ?? "application/json" } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, { "content-type": answer.headers["content-type"] ?? "application/json" })
      answer.pipe(res)
    }
  )
  upstream.on("error", (error) =>
    send(res, 502, JSON.stringify({ message: `sandbox unreachable: ${error.message}` }), TYPES[".json"])
  )
  req.pipe(upstream)
}

const REPO_ROOT = path.resolve(__dirname, "..", "..")

/** The package as the demo installed it (the packed tarball): the storefront imports its shipped build from there. */
const INSTALLED_PACKAGE = path.join(REPO_ROOT, "demo", "node_modules", "medusa-payment-refpay")

/**
 * The storefront components (`medusa-payment-refpay/storefront`, resolved from demo/node_modules like a shop's
 * bundler would) bundled for the browser as the global `RefpayKit` (served as /kit.bundle.js, kept in memory).
 */
async function buildKitBundle() {
  const esbuild = require("esbuild")
  const result = await esbuild.build({
    entryPoints: [path.join(REPO_ROOT, "demo", "storefront", "kit", "main.tsx")],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "RefpayKit",
    jsx: "automatic",
    target: "es2020",
    minify: true,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  })
  return result.outputFiles[0].contents
}

/**
 * Starts the storefront server on 127.0.0.1:port.
 * @param {{ port: number, root: string, sandboxUrl: string, config: object }} options config is served as /config.json
 */
async function startStorefront({ port, root, sandboxUrl, config }) {
  const staticRoot = path.resolve(root)
  const kitBundle = await buildKitBundle()
  // The stylesheet the package ships for its components, as a shop links it.
  const kitStyles = fs.readFileSync(path.join(INSTALLED_PACKAGE, "storefront-kit", "dist", "styles.css"))
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost")
    if (url.pathname === "/config.json") return send(res, 200, JSON.stringify(config), TYPES[".json"])
    if (url.pathname === "/kit.bundle.js") return send(res, 200, kitBundle, TYPES[".js"])
    if (url.pathname === "/refpay.css") return send(res, 200, kitStyles, TYPES[".css"])
    if (url.pathname.startsWith("/sandbox/")) {
      return proxyToSandbox(req, res, sandboxUrl, url.pathname.slice("/sandbox/".length) + url.search)
    }
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "method not allowed")
    // Every page path is the one-page app (/, /order/<id>, /payment-collection/<id>).
    const isAsset = path.extname(url.pathname) !== ""
    return serveFile(res, staticRoot, isAsset ? url.pathname : "/")
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => {
      resolve({
        port: server.address().port,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            server.closeAllConnections() // keep-alive sockets too: close() alone waits for them
          }),
      })
    })
  })
}

module.exports = { startStorefront }

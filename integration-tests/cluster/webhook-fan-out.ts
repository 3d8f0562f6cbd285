// The platform's webhooks delivered to every server at once: the sandbox sends each event to one URL, this loopback
// proxy, which forwards it to the plugin's webhook route (`POST /hooks/refpay`) of every HTTP server in parallel and,
// when asked, to Medusa's webhook route (`POST /hooks/payment/refpay_refpay`: processed later through the Redis event
// bus) of one server in turn. It answers the sandbox 200 as soon as one server's plugin route processed the event
// (200), and 503 when none did, so the sandbox delivers it again, as it would after a load balancer's failed attempt;
// the other forwards run on to their end. Like a load balancer's per-server connection limit (nginx `max_conns`), at
// most `maxPerServer` forwards are open to one server at a time; the others wait their turn, and a forward still
// waiting when the sandbox gave up on its delivery (its 10 s attempt timeout; it delivers again) is dropped, as a load
// balancer drops a queued request whose client went away.
import http from "node:http"
import type { AddressInfo } from "node:net"
import { request } from "undici"

export interface FanOutTarget {
  name: string
  url: string
}

export interface FanOutStats {
  /** Deliveries the sandbox made to the proxy. */
  received: number
  /**
   * Per server: answers by status ("200", "503", "ECONNRESET", ...) for the plugin's webhook route, and for Medusa's
   * webhook route under "medusa-route:".
   */
  answers: Record<string, Record<string, number>>
}

export interface WebhookFanOut {
  url: string
  stats(): FanOutStats
  /** Requests to the plugin's webhook route a server is processing right now. */
  inFlight(name: string): number
  /** Deliveries still being forwarded. */
  pending(): number
  reset(): void
  close(): Promise<void>
}

const FORWARD_TIMEOUT_MS = 60_000
const MAX_PER_SERVER = 16

export async function startWebhookFanOut(options: {
  targets: () => FanOutTarget[]
  /** Also to Medusa's webhook route of one server in turn, while this says so. */
  medusaRoute?: () => boolean
  maxPerServer?: number
}): Promise<WebhookFanOut> {
  const maxPerServer = options.maxPerServer ?? MAX_PER_SERVER
  const open = new Map<string, number>()
  const queues = new Map<string, (() => void)[]>()
  /** Waits for one of the server's `maxPerServer` slots; resolves with its release. */
  const slot = async (server: string): Promise<() => void> => {
    if ((open.get(server) ?? 0) >= maxPerServer) {
      await new Promise<void>((resolve) => {
        const queue = queues.get(server) ?? []
        queue.push(resolve)
        queues.set(server, queue)
      })
    } else open.set(server, (open.get(server) ?? 0) + 1)
    return () => {
      const waiting = queues.get(server)?.shift()
      if (waiting)
        waiting() // the slot passes on
      else open.set(server, (open.get(server) ?? 1) - 1)
    }
  }
  let received = 0
  let pending = 0
  let medusaRouteTurn = 0
  let answers: FanOutStats["answers"] = {}
  const inFlight = new Map<string, number>()
  const count = (server: string, outcome: string) => {
    const row = (answers[server] ??= {})
    row[outcome] = (row[outcome] ?? 0) + 1
  }

  const post = async (
    target: FanOutTarget,
    path: string,
    body: Buffer,
    headers: Record<string, string>,
    label: string,
    gone: () => boolean
  ) => {
    const release = await slot(target.name)
    if (gone()) {
      release()
      count(target.name, `${label}dropped`)
      return 0
    }
    try {
      const answer = await request(`${target.url}${path}`, {
        method: "POST",
        headers,
        body,
        headersTimeout: FORWARD_TIMEOUT_MS,
        bodyTimeout: FORWARD_TIMEOUT_MS,
      })
      await answer.body.text()
      count(target.name, `${label}${answer.statusCode}`)
      return answer.statusCode
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).message
      count(target.name, `${label}${code}`)
      return 0
    } finally {
      release()
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", async () => {
      received++
      pending++
      const body = Buffer.concat(chunks)
      const headers: Record<string, string> = { "content-type": "application/json" }
      for (const name of ["x-refpay-webhook-secret", "authorization", "user-agent"]) {
        const value = req.headers[name]
        if (typeof value === "string") headers[name] = value
      }
      const targets = options.targets()
      let clientGone = false
      res.on("close", () => (clientGone = !res.writableFinished))
      const gone = () => clientGone
      const answer = (status: number) => {
        if (res.headersSent) return
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify({ processed: status === 200 }))
      }
      try {
        const toPluginRoute = targets.map(async (target) => {
          inFlight.set(target.name, (inFlight.get(target.name) ?? 0) + 1)
          try {
            const status = await post(target, "/hooks/refpay", body, headers, "", gone)
            if (status === 200) answer(200)
            return status
          } finally {
            inFlight.set(target.name, (inFlight.get(target.name) ?? 1) - 1)
          }
        })
        const toMedusaRoute =
          options.medusaRoute?.() && targets.length > 0
            ? [
                post(
                  targets[medusaRouteTurn++ % targets.length]!,
                  "/hooks/payment/refpay_refpay",
                  body,
                  headers,
                  "medusa-route:",
                  gone
                ),
              ]
            : []
        await Promise.all([Promise.all(toPluginRoute), Promise.all(toMedusaRoute)])
        answer(503)
      } finally {
        pending--
      }
    })
  })
  const sockets = new Set<import("node:net").Socket>()
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/refpay`,
    stats: () => ({ received, answers: JSON.parse(JSON.stringify(answers)) }),
    inFlight: (name) => inFlight.get(name) ?? 0,
    pending: () => pending,
    reset: () => {
      received = 0
      answers = {}
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
}

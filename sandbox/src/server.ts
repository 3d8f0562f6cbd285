import http, { type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { ABORTED, readBody, TOO_LARGE } from "./body"
import type { Handler, RequestContext } from "./context"
import { handleControl } from "./controls"
import { areaError, areaOf, paymentsError, type Area } from "./errors"
import { ControlGuard } from "./exposure"
import { faultReply, type Fault, type HoldEnd } from "./faults"
import { CANCEL_PATH, CREATE_PATH, cancelPayment, createPayment, readPayment, STATUS_PREFIX } from "./payments"
import type { RequestNote } from "./request-log"
import { JSON_TYPE, type Reply } from "./reply"
import type { SandboxState } from "./state"
import { issueT1Token } from "./t1"
import { issueT2Token } from "./t2"

/** Platform routes: exact paths first, then the one path with a parameter. */
const EXACT = new Map<string, Record<string, Handler>>([
  ["/auth/token", { POST: issueT1Token }],
  ["/backoffice/v1/token", { POST: issueT2Token }],
  [CREATE_PATH, { POST: createPayment }],
  [CANCEL_PATH, { POST: cancelPayment }],
])
const STATUS_ROUTE: Record<string, Handler> = { GET: readPayment }

function platformRoute(path: string): Record<string, Handler> | undefined {
  const exact = EXACT.get(path)
  if (exact) return exact
  if (
    path.startsWith(STATUS_PREFIX) &&
    path.length > STATUS_PREFIX.length &&
    !path.includes("/", STATUS_PREFIX.length)
  ) {
    return STATUS_ROUTE
  }
  return undefined
}

function route(ctx: RequestContext, area: Area): Reply | Promise<Reply> {
  if (area === "controls") return handleControl(ctx)
  const methods = platformRoute(ctx.path)
  if (!methods) return areaError(area, 404, "NOT_FOUND", `No resource at ${ctx.path}`)
  const handler = methods[ctx.req.method as string]
  if (!handler) {
    const reply = areaError(area, 405, "METHOD_NOT_ALLOWED", `${ctx.req.method} is not allowed on ${ctx.path}`)
    return { ...reply, headers: { ...reply.headers, allow: Object.keys(methods).join(", ") } }
  }
  return handler(ctx)
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: http.OutgoingHttpHeaders = {
    "content-type": reply.contentType ?? JSON_TYPE,
    "content-length": Buffer.byteLength(reply.body),
    ...reply.headers,
  }
  res.writeHead(reply.status, headers)
  res.end(reply.body)
}

/**
 * The request pipeline: fault (before) -> body (size limit) -> route -> fault (after) -> answer -> log. A fault's
 * hold comes first at its point, then its delay, reset or status.
 * `/__sandbox` calls pass the control guard first (exposure.ts), and skip faults and the log. A thrown handler
 * error is a 500 in the area's dialect.
 */
export function createHandler(state: SandboxState): (req: IncomingMessage, res: ServerResponse) => void {
  const guard = new ControlGuard(state.options.controlToken)
  return (req, res) => {
    handle(state, guard, req, res).catch((err: unknown) => {
      state.log(`refpay-sandbox: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
      if (!res.headersSent) send(res, paymentsError(500, "INTERNAL_ERROR", "Sandbox internal error"))
    })
  }
}

async function handle(
  state: SandboxState,
  guard: ControlGuard,
  req: IncomingMessage,
  res: ServerResponse
): Promise<void> {
  const started = performance.now()
  const url = req.url ?? "/"
  const q = url.indexOf("?")
  const path = q === -1 ? url : url.slice(0, q)
  const area = areaOf(path)
  const method = req.method ?? "GET"

  if (area === "controls") {
    const denied = guard.check(req)
    if (denied) return send(res, denied)
  }
  const note: RequestNote = {}
  const finish = (status: number) => {
    if (area !== "controls")
      state.requests.add(state.clock.now(), method, path, status, performance.now() - started, note)
  }

  const fault = area === "controls" ? undefined : state.faults.take(method, path)
  if (fault) note.fault = fault.reset ? "reset" : fault.status !== undefined ? "status" : fault.hold ? "hold" : "delay"
  if (fault && fault.when === "before") {
    if (fault.hold && (await holdRequest(state, fault, res)) === "dropped") return finish(0)
    if (fault.delayMs) await state.requestTimers.sleep(fault.delayMs)
    if (fault.reset) return resetConnection(req, finish)
    if (fault.status !== undefined) {
      send(res, faultReply(fault, area))
      return finish(fault.status)
    }
  }

  const body = await readBody(req)
  if (body === ABORTED) return finish(0)
  if (body === TOO_LARGE) {
    // The rest of the body is read and discarded (Node does it once the answer is sent), so the client
    // gets the 413 instead of a reset while it is still writing, and the connection stays usable.
    send(res, areaError(area, 413, "PAYLOAD_TOO_LARGE", "Request body exceeds 1 MiB"))
    return finish(413)
  }

  let reply: Reply
  try {
    reply = await route({ req, path, query: q === -1 ? "" : url.slice(q + 1), body, note, state }, area)
  } catch (err) {
    state.log(
      `refpay-sandbox: handler error on ${method} ${path}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`
    )
    reply = areaError(area, 500, "INTERNAL_ERROR", "Sandbox internal error")
  }
  // Any handler may have changed something (even a read expires an overdue reference): the state file decides.
  state.changed()

  if (fault && fault.when === "after") reply = await afterWork(state, fault, area, reply, req, res, finish)
  if (reply.status === 0) return
  send(res, reply)
  finish(reply.status)
}

/** `when: "after"`: the work is done; now hold, delay, drop the connection, or swap the answer. Status 0 = nothing to send. */
async function afterWork(
  state: SandboxState,
  fault: Fault,
  area: Area,
  reply: Reply,
  req: IncomingMessage,
  res: ServerResponse,
  finish: (status: number) => void
): Promise<Reply> {
  if (fault.hold && (await holdRequest(state, fault, res)) === "dropped") {
    finish(0)
    return { status: 0, body: "" }
  }
  if (fault.delayMs) await state.requestTimers.sleep(fault.delayMs)
  if (fault.reset) {
    resetConnection(req, finish)
    return { status: 0, body: "" }
  }
  return fault.status !== undefined ? faultReply(fault, area) : reply
}

/**
 * Waits until the hold fault lets this request go. A client that gives up (its connection closes) is no longer held:
 * "dropped", and the request ends there without an answer (and, before the work, without doing it).
 */
async function holdRequest(state: SandboxState, fault: Fault, res: ServerResponse): Promise<HoldEnd> {
  const { done, drop } = state.faults.hold(fault)
  res.once("close", drop)
  try {
    return await done
  } finally {
    res.off("close", drop)
  }
}

/** A TCP reset (not a clean close): the client sees ECONNRESET, as with a proxy or load balancer failing. */
function resetConnection(req: IncomingMessage, finish: (status: number) => void): void {
  req.socket.resetAndDestroy()
  finish(0)
}

/* ---------- listening ---------- */

export interface Listening {
  servers: http.Server[]
  port: number
}

function listenOne(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err)
    server.once("error", onError)
    server.listen({ host, port }, () => {
      server.off("error", onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function newServer(handler: http.RequestListener): http.Server {
  const server = http.createServer({ keepAlive: true }, handler)
  server.keepAliveTimeout = 5_000
  return server
}

/**
 * "localhost" listens on 127.0.0.1 and on ::1 with the same port, so http://localhost:PORT works whichever
 * address the client resolves. ::1 is skipped where IPv6 is unavailable; with port 0, a port taken on ::1 by
 * someone else means trying another port.
 */
export async function listen(
  handler: http.RequestListener,
  host: string,
  port: number,
  log: (line: string) => void
): Promise<Listening> {
  if (host !== "localhost") {
    const server = newServer(handler)
    return { servers: [server], port: await listenOne(server, host, port) }
  }
  for (let attempt = 0; ; attempt++) {
    const v4 = newServer(handler)
    const bound = await listenOne(v4, "127.0.0.1", port)
    const v6 = newServer(handler)
    try {
      await listenOne(v6, "::1", bound)
      return { servers: [v4, v6], port: bound }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === "EADDRINUSE" && port === 0 && attempt < 10) {
        await closeServers([v4])
        continue
      }
      if (code === "EADDRINUSE") log(`refpay-sandbox: ::1 port ${bound} is taken; listening on 127.0.0.1 only`)
      return { servers: [v4], port: bound }
    }
  }
}

export function closeServers(servers: http.Server[]): Promise<void> {
  return Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          if (!server.listening) return resolve()
          server.close(() => resolve())
          server.closeAllConnections()
        })
    )
  ).then(() => undefined)
}

/** The address clients should use: what they asked for, with wildcard and IPv6 forms made connectable. */
export function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1"
  if (host === "::") return "localhost"
  return host.includes(":") ? `[${host}]` : host
}

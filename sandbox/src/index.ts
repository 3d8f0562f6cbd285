import type { AddressInfo } from "node:net"
import { exposureWarning, isLoopbackAddress, isLoopbackHost, notLoopbackWithoutToken } from "./exposure"
import { resolveOptions, type SandboxOptions } from "./options"
import { closeServers, createHandler, listen, urlHost } from "./server"
import { SandboxState } from "./state"

export { DEFAULT_CREDENTIALS, type SandboxCredential } from "./credentials"
export {
  DEFAULT_ENTITY,
  DEFAULT_PORT,
  DEFAULT_SELLER_ID,
  SandboxOptionsError,
  type AuthorizationForm,
  type ExpiredStatus,
  type SandboxOptions,
  type WebhookAuthMode,
} from "./options"
export { SandboxStateError } from "./persistence"
export type { RequestLogEntry } from "./request-log"
export type { WebhookPayload, EventType } from "./webhooks"

export interface RunningSandbox {
  /** http://localhost:PORT (or the host asked for). */
  url: string
  port: number
  /** auth_url of T1: url + "/auth". */
  authUrl: string
  /** backoffice_url of T2: url + "/backoffice". */
  backofficeUrl: string
  /** payments_url: url. */
  paymentsUrl: string
  /** Stops the servers, pending webhook timers and in-flight deliveries, and closes keep-alive sockets. */
  close(): Promise<void>
  /** Back to the start-up state, like POST /__sandbox/reset. */
  reset(): void
  /** The state file in use (`stateFile`), if any. */
  stateFile?: string
}

/** Starts a REFPAY platform simulator over HTTP; resolves once it listens. */
export async function startSandbox(options: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const resolved = resolveOptions(options)
  // Beyond loopback the controls would answer anyone: no start without a control token (exposure.ts).
  const loopback = await isLoopbackHost(resolved.host)
  if (!loopback && resolved.controlToken === undefined) throw notLoopbackWithoutToken(resolved.host)
  const state = new SandboxState(resolved, options)
  let listening: Awaited<ReturnType<typeof listen>>
  try {
    listening = await listen(createHandler(state), resolved.host, resolved.port, state.log)
  } catch (err) {
    state.close()
    throw err
  }
  const { servers, port } = listening
  // What was bound decides (a name may resolve differently by now).
  const bound = servers.map((s) => (s.address() as AddressInfo).address)
  if (!bound.every(isLoopbackAddress)) {
    if (resolved.controlToken === undefined) {
      state.close()
      await closeServers(servers)
      throw notLoopbackWithoutToken(`${resolved.host} (${bound.join(", ")})`)
    }
    // Seen whatever the logger: without one, on stderr.
    const warning = exposureWarning(resolved.host, port, resolved.credentials)
    if (resolved.logger) resolved.logger(warning)
    else process.stderr.write(`${warning}\n`)
  }
  if (state.keeper) {
    state.log(
      `refpay-sandbox: state file ${state.keeper.file} (${state.loaded ? `${state.loaded.payments} payments loaded` : "new"})`
    )
  }
  const url = `http://${urlHost(resolved.host)}:${port}`
  let closing: Promise<void> | undefined
  return {
    url,
    port,
    authUrl: `${url}/auth`,
    backofficeUrl: `${url}/backoffice`,
    paymentsUrl: url,
    ...(state.keeper ? { stateFile: state.keeper.file } : {}),
    close() {
      if (!closing) {
        state.close()
        closing = closeServers(servers)
      }
      return closing
    },
    reset() {
      state.reset()
    },
  }
}

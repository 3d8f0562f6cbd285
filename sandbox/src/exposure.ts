import { lookup } from "node:dns/promises"
import type { IncomingMessage } from "node:http"
import { BlockList, isIP, isIPv6 } from "node:net"
import { DEFAULT_CREDENTIALS, digest, sameSecret, type SandboxCredential } from "./credentials"
import { paymentsError } from "./errors"
import { SandboxOptionsError } from "./options"
import type { Reply } from "./reply"

/**
 * Who may use the `/__sandbox` controls (pay any reference, read customer data, point webhooks and their secret
 * elsewhere), and what a sandbox listening beyond loopback says about itself.
 *
 *  - Without a control token (only possible on loopback): direct loopback callers only, and never a request
 *    carrying a proxy's forwarding headers (a reverse proxy on the same host makes any caller look local).
 *  - With a control token (required when the sandbox listens beyond loopback): every control call must present
 *    it, in `x-refpay-sandbox-token` or `Authorization: Bearer`, whoever calls and however.
 * The platform routes never look at any of this.
 */

export const CONTROL_TOKEN_HEADER = "x-refpay-sandbox-token"

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4")
LOOPBACK.addAddress("::1", "ipv6") // ::ffff:127.x.x.x is matched by the IPv4 subnet

/** An IP address of this machine's loopback interface (127.0.0.0/8, ::1, ::ffff:127.x.x.x). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined || isIP(address) === 0) return false
  return LOOPBACK.check(address, isIPv6(address) ? "ipv6" : "ipv4")
}

/**
 * Whether listening on `host` keeps the sandbox on loopback. "localhost" is (the sandbox binds 127.0.0.1 and ::1
 * itself); an address literal is checked as is; any other name counts only when every address it resolves to is a
 * loopback one (a name that does not resolve does not count).
 */
export async function isLoopbackHost(host: string): Promise<boolean> {
  if (host === "localhost") return true
  if (isIP(host) !== 0) return isLoopbackAddress(host)
  try {
    const addresses = await lookup(host, { all: true })
    return addresses.length > 0 && addresses.every((a) => isLoopbackAddress(a.address))
  } catch {
    return false
  }
}

export function notLoopbackWithoutToken(host: string): SandboxOptionsError {
  return new SandboxOptionsError(
    `The sandbox would listen on ${host}, which is not loopback, without a control token: its /__sandbox controls ` +
      `(pay any reference, read customer data, redirect webhooks and their secret) would answer anyone who can reach it. ` +
      `Set a control token (REFPAY_SANDBOX_CONTROL_TOKEN, or --control-token; controlToken in process), at least 16 ` +
      `characters, e.g. from \`openssl rand -hex 32\`, and send it in ${CONTROL_TOKEN_HEADER}; or listen on localhost.`
  )
}

/** The stderr warning of a sandbox listening beyond loopback; never contains a secret. */
export function exposureWarning(host: string, port: number, credentials: readonly SandboxCredential[]): string {
  const documented = credentials.filter((c) =>
    DEFAULT_CREDENTIALS.some((d) => d.clientId === c.clientId && d.clientSecret === c.clientSecret)
  )
  const which = documented.length
    ? `the documented test credentials (${documented.map((c) => c.clientId).join(", ")})`
    : "its test credentials"
  return (
    `refpay-sandbox: WARNING: listening on ${host} port ${port}, which is not loopback. The platform API accepts ` +
    `${which} from anyone who can reach this address; the /__sandbox controls answer only calls that carry the control ` +
    `token (${CONTROL_TOKEN_HEADER} or Authorization: Bearer). This is a test simulator: keep it off networks you do not trust.`
  )
}

/**
 * Headers a proxy adds. A proxy that adds none of them (nginx's bare proxy_pass) cannot be told from a local
 * caller: anything that proxies to the sandbox needs the control token.
 */
const FORWARDING_HEADERS = ["forwarded", "via", "x-real-ip", "x-client-ip", "true-client-ip", "cf-connecting-ip"]

function forwardingHeader(req: IncomingMessage): string | undefined {
  for (const name of Object.keys(req.headers)) {
    if (name.startsWith("x-forwarded-") || FORWARDING_HEADERS.includes(name)) return name
  }
  return undefined
}

/** The token a control call presents: x-refpay-sandbox-token, else Authorization: Bearer. */
function presentedToken(req: IncomingMessage): string | undefined {
  const header = req.headers[CONTROL_TOKEN_HEADER]
  if (typeof header === "string" && header.length > 0) return header
  const authorization = req.headers.authorization
  const bearer = authorization === undefined ? undefined : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)
  return bearer?.[1]
}

export class ControlGuard {
  private readonly tokenDigest?: Buffer

  constructor(token: string | undefined) {
    if (token !== undefined) this.tokenDigest = digest(token)
  }

  /** undefined: serve the control call; else the 403 to answer instead. */
  check(req: IncomingMessage): Reply | undefined {
    if (this.tokenDigest) {
      const presented = presentedToken(req)
      if (presented === undefined) {
        return paymentsError(
          403,
          "CONTROL_TOKEN_REQUIRED",
          `Sandbox controls need the control token in ${CONTROL_TOKEN_HEADER} (or Authorization: Bearer)`
        )
      }
      // Hashing both sides first gives equal lengths: the comparison time says nothing about the token.
      if (!sameSecret(this.tokenDigest, presented))
        return paymentsError(403, "CONTROL_TOKEN_INVALID", "Wrong sandbox control token")
      return undefined
    }
    const forwarded = forwardingHeader(req)
    if (forwarded) {
      return paymentsError(
        403,
        "FORWARDED_REQUEST",
        `Sandbox controls refuse forwarded requests (this one carries ${forwarded}): a proxy on this host would make ` +
          `any caller look local. To call them through a proxy, start the sandbox with a control token ` +
          `(--control-token or REFPAY_SANDBOX_CONTROL_TOKEN) and send it in ${CONTROL_TOKEN_HEADER}.`
      )
    }
    if (!isLoopbackAddress(req.socket.remoteAddress)) {
      return paymentsError(403, "FORBIDDEN", "Sandbox controls answer loopback callers only")
    }
    return undefined
  }
}

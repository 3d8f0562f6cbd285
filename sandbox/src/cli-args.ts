import { DEFAULT_CREDENTIALS, type SandboxCredential } from "./credentials"
import { DEFAULT_PORT, type SandboxOptions } from "./options"

export const USAGE = `Usage: refpay-sandbox [options]

A stateful simulator of the REFPAY platform (T1 and T2 tokens, reference payments, webhooks).

Options:
  --port <n>                  TCP port (default ${DEFAULT_PORT}; 0 = any free port)
  --host <host>               listen address (default localhost = 127.0.0.1 and ::1)
  --webhook-url <url>         where webhook events are POSTed (default: record only)
  --webhook-secret <secret>   shared secret sent with every webhook
  --webhook-auth <mode>       header (x-refpay-webhook-secret, default) or basic (refpay:<secret>)
  --webhook-retries <n>       retries after a failed delivery (default 5)
  --webhook-backoff-ms <ms>   first retry delay, doubled each time (default 1000)
  --token-ttl <seconds>       token lifetime (default 3600)
  --expiry-days <days>        validity of a waiting reference (default 7)
  --expired-status <status>   CANCELLED (default) or EXPIRED
  --authorization-form <f>    bearer, bare or both (default both)
  --client-id <id>            override the default credential set's client_id
  --client-secret <secret>    ... its client_secret
  --channel <channel>         ... its channel
  --scope <scope>             ... its scope (space-separated)
  --help                      show this text

Controls live under /__sandbox (see docs/platform-contract.md).`

export class CliError extends Error {
  override name = "CliError"
}

type Parsed = { help: true } | { help: false; options: Partial<SandboxOptions> }

type Setter = (value: string, o: Partial<SandboxOptions>, c: SandboxCredential) => void

const FLAGS: Record<string, Setter> = {
  "--port": (v, o) => (o.port = int("--port", v)),
  "--host": (v, o) => (o.host = v),
  "--webhook-url": (v, o) => (o.webhookUrl = v),
  "--webhook-secret": (v, o) => (o.webhookSecret = v),
  "--webhook-auth": (v, o) => (o.webhookAuth = oneOf("--webhook-auth", v, ["header", "basic"] as const)),
  "--webhook-retries": (v, o) => (o.webhookRetries = int("--webhook-retries", v)),
  "--webhook-backoff-ms": (v, o) => (o.webhookBackoffMs = int("--webhook-backoff-ms", v)),
  "--token-ttl": (v, o) => (o.tokenTtlSeconds = int("--token-ttl", v)),
  "--expiry-days": (v, o) => (o.expiryDays = num("--expiry-days", v)),
  "--expired-status": (v, o) => (o.expiredStatus = oneOf("--expired-status", v, ["CANCELLED", "EXPIRED"] as const)),
  "--authorization-form": (v, o) => (o.authorizationForm = oneOf("--authorization-form", v, ["bearer", "bare", "both"] as const)),
  "--client-id": (v, _o, c) => (c.clientId = v),
  "--client-secret": (v, _o, c) => (c.clientSecret = v),
  "--channel": (v, _o, c) => (c.channel = v),
  "--scope": (v, _o, c) => (c.scope = v),
}

const CREDENTIAL_FLAGS = ["--client-id", "--client-secret", "--channel", "--scope"]

/** `--flag value` and `--flag=value`; credential flags change the default set and keep the limited one. */
export function parseArgs(argv: string[]): Parsed {
  const options: Partial<SandboxOptions> = { port: DEFAULT_PORT }
  const credential: SandboxCredential = { ...DEFAULT_CREDENTIALS[0] }
  let credentialChanged = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === "--help" || arg === "-h") return { help: true }
    const eq = arg.indexOf("=")
    const name = eq === -1 ? arg : arg.slice(0, eq)
    const setter = FLAGS[name]
    if (!setter) throw new CliError(`Unknown option ${arg}. Run with --help for the list.`)
    let value: string | undefined
    if (eq !== -1) value = arg.slice(eq + 1)
    else value = argv[++i]
    if (value === undefined || (eq === -1 && value.startsWith("--"))) throw new CliError(`Option ${name} needs a value.`)
    setter(value, options, credential)
    if (CREDENTIAL_FLAGS.includes(name)) credentialChanged = true
  }
  if (credentialChanged) options.credentials = [credential, { ...DEFAULT_CREDENTIALS[1] }]
  return { help: false, options }
}

function int(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`${flag} must be a whole number, got "${value}".`)
  return Number(value)
}

function num(flag: string, value: string): number {
  const n = Number(value)
  if (value.trim() === "" || !Number.isFinite(n)) throw new CliError(`${flag} must be a number, got "${value}".`)
  return n
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new CliError(`${flag} must be one of ${allowed.join(", ")}, got "${value}".`)
  return value as T
}

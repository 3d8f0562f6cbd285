import { parseArgs as tokenize, type ParseArgsConfig } from "node:util"
import { DEFAULT_CREDENTIALS, type SandboxCredential } from "./credentials"
import { DEFAULT_PORT, type SandboxOptions } from "./options"

export const USAGE = `Usage: refpay-sandbox [options]

A stateful simulator of the REFPAY platform (T1 and T2 tokens, reference payments, webhooks).

Options:
  --port <n>                  TCP port (default ${DEFAULT_PORT}; 0 = any free port)
  --host <host>               listen address (default localhost = 127.0.0.1 and ::1). A host that is not
                              loopback (0.0.0.0, ::, a LAN address) lets anyone who can reach it use the
                              platform API with the documented test credentials (a warning says so), and
                              needs --control-token: without one the sandbox refuses to start
  --control-token <token>     secret every /__sandbox control call must then send, in x-refpay-sandbox-token
                              or Authorization: Bearer (16+ characters, e.g. openssl rand -hex 32). Without
                              it, controls answer direct loopback callers only, never forwarded requests
                              (Forwarded, X-Forwarded-*, X-Real-IP, Via: a proxy on this host)
  --state <file>              keep payments, idempotency records, the clock and the webhook set-up in FILE,
                              so a restarted sandbox keeps its references payable (default: memory only)
  --webhook-url <url>         where webhook events are POSTed (default: record only)
  --webhook-secret <secret>   shared secret sent with every webhook
  --webhook-auth <mode>       header (x-refpay-webhook-secret, default) or basic (refpay:<secret>)
  --webhook-retries <n>       retries after a failed delivery (default 5)
  --webhook-backoff-ms <ms>   first retry delay, doubled each time (default 1000)
  --webhook-timeout-ms <ms>   how long an attempt waits for the shop's answer before it is retried (default 10000)
  --token-ttl <seconds>       token lifetime (default 3600)
  --expiry-days <days>        validity of a waiting reference (default 7)
  --expired-status <status>   CANCELLED (default) or EXPIRED
  --authorization-form <f>    bearer, bare or both (default both)
  --client-id <id>            override the default credential set's client_id
  --client-secret <secret>    ... its client_secret
  --channel <channel>         ... its channel
  --scope <scope>             ... its scope (space-separated)
  --help                      show this text

Environment (a flag wins over its variable; variables keep secrets out of ps and of logged command lines):
  REFPAY_SANDBOX_STATE           --state
  REFPAY_SANDBOX_CONTROL_TOKEN   --control-token
  REFPAY_SANDBOX_WEBHOOK_SECRET  --webhook-secret
  REFPAY_SANDBOX_CLIENT_ID       --client-id
  REFPAY_SANDBOX_CLIENT_SECRET   --client-secret
  REFPAY_SANDBOX_CHANNEL         --channel
  REFPAY_SANDBOX_SCOPE           --scope

Controls live under /__sandbox (see docs/platform-contract.md); they can pay any reference, list customer data
and send webhooks (with their secret) anywhere, so keep them on loopback or behind --control-token.

Pay a reference as its customer would (the entity and reference the shop shows; -d '{"force":true}' settles one
already cancelled or expired; /cancel and /expire instead of /pay; GET without /pay reads it):
  curl -X POST http://localhost:4010/__sandbox/references/ENTITY/REFERENCE/pay`

export class CliError extends Error {
  override name = "CliError"
}

type Parsed = { help: true } | { help: false; options: Partial<SandboxOptions> }

type Setter = (value: string, o: Partial<SandboxOptions>, c: SandboxCredential) => void

interface Flag {
  set: Setter
  /** The environment variable that gives the value when the flag is absent. */
  env?: string
  /** Changes the default credential set. */
  credential?: true
}

/** Every flag but --help, by long name; all take a value. */
const FLAGS: Record<string, Flag> = {
  port: { set: (v, o) => (o.port = int("--port", v)) },
  host: { set: (v, o) => (o.host = v) },
  state: { set: (v, o) => (o.stateFile = v), env: "REFPAY_SANDBOX_STATE" },
  "control-token": { set: (v, o) => (o.controlToken = v), env: "REFPAY_SANDBOX_CONTROL_TOKEN" },
  "webhook-url": { set: (v, o) => (o.webhookUrl = v) },
  "webhook-secret": { set: (v, o) => (o.webhookSecret = v), env: "REFPAY_SANDBOX_WEBHOOK_SECRET" },
  "webhook-auth": { set: (v, o) => (o.webhookAuth = oneOf("--webhook-auth", v, ["header", "basic"] as const)) },
  "webhook-retries": { set: (v, o) => (o.webhookRetries = int("--webhook-retries", v)) },
  "webhook-backoff-ms": { set: (v, o) => (o.webhookBackoffMs = int("--webhook-backoff-ms", v)) },
  "webhook-timeout-ms": { set: (v, o) => (o.webhookTimeoutMs = int("--webhook-timeout-ms", v)) },
  "token-ttl": { set: (v, o) => (o.tokenTtlSeconds = int("--token-ttl", v)) },
  "expiry-days": { set: (v, o) => (o.expiryDays = num("--expiry-days", v)) },
  "expired-status": {
    set: (v, o) => (o.expiredStatus = oneOf("--expired-status", v, ["CANCELLED", "EXPIRED"] as const)),
  },
  "authorization-form": {
    set: (v, o) => (o.authorizationForm = oneOf("--authorization-form", v, ["bearer", "bare", "both"] as const)),
  },
  "client-id": { set: (v, _o, c) => (c.clientId = v), env: "REFPAY_SANDBOX_CLIENT_ID", credential: true },
  "client-secret": { set: (v, _o, c) => (c.clientSecret = v), env: "REFPAY_SANDBOX_CLIENT_SECRET", credential: true },
  channel: { set: (v, _o, c) => (c.channel = v), env: "REFPAY_SANDBOX_CHANNEL", credential: true },
  scope: { set: (v, _o, c) => (c.scope = v), env: "REFPAY_SANDBOX_SCOPE", credential: true },
}

/** What node:util's parseArgs needs to know: every flag takes a string, --help (-h) takes none. */
const TOKEN_OPTIONS: ParseArgsConfig["options"] = {
  ...Object.fromEntries(Object.keys(FLAGS).map((name) => [name, { type: "string" as const }])),
  help: { type: "boolean", short: "h" },
}

/** The environment variables the CLI reads, for documentation and tests. */
export const ENVIRONMENT_VARIABLES: readonly string[] = Object.values(FLAGS).flatMap((f) => (f.env ? [f.env] : []))

/**
 * `--flag value` and `--flag=value` (tokenised by node:util's parseArgs), then the environment for the flags that
 * were not given (empty variables count as unset). Credential flags and variables change the default set and keep
 * the limited one. `env` defaults to none: the CLI passes process.env.
 */
export function parseArgs(argv: string[], env: Record<string, string | undefined> = {}): Parsed {
  // Non-strict: unknown options and missing values come back as tokens, so the messages below stay ours.
  const { tokens } = tokenize({
    args: argv,
    options: TOKEN_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  if (tokens.some((t) => t.kind === "option" && t.name === "help")) return { help: true }

  const options: Partial<SandboxOptions> = { port: DEFAULT_PORT }
  const credential: SandboxCredential = { ...DEFAULT_CREDENTIALS[0] }
  let credentialChanged = false
  const given = new Set<string>()
  for (const token of tokens) {
    if (token.kind === "positional")
      throw new CliError(`Unexpected argument ${token.value}. Run with --help for the list.`)
    if (token.kind === "option-terminator") throw new CliError("Unexpected argument --. Run with --help for the list.")
    const flag = FLAGS[token.name]
    if (!flag) {
      const shown = token.inlineValue ? `${token.rawName}=${token.value}` : token.rawName
      throw new CliError(`Unknown option ${shown}. Run with --help for the list.`)
    }
    const value = token.value
    // A separate value that looks like a flag is a forgotten value: `--port --host x`.
    if (value === undefined || (!token.inlineValue && value.startsWith("--"))) {
      throw new CliError(`Option --${token.name} needs a value.`)
    }
    flag.set(value, options, credential)
    given.add(token.name)
    if (flag.credential) credentialChanged = true
  }
  for (const [name, flag] of Object.entries(FLAGS)) {
    const value = flag.env === undefined || given.has(name) ? undefined : env[flag.env]
    if (value === undefined || value === "") continue
    flag.set(value, options, credential)
    if (flag.credential) credentialChanged = true
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
  if (!(allowed as readonly string[]).includes(value))
    throw new CliError(`${flag} must be one of ${allowed.join(", ")}, got "${value}".`)
  return value as T
}

import { createHash, timingSafeEqual } from "node:crypto"

/** One set of onboarding credentials the sandbox accepts. */
export interface SandboxCredential {
  clientId: string
  clientSecret: string
  /** T2 only: the channel issued with the credentials. */
  channel: string
  /** Space-separated scopes granted by contract, e.g. "payments". */
  scope: string
  /** Seller account behind the credential; defaults to the sandbox's `sellerId`. */
  sellerId?: string
  /** 5-digit payment entity of that seller; defaults to the sandbox's `entity`. */
  entity?: string
}

/** The two sets of the contract page: the default one, and a limited one that exercises 403. */
export const DEFAULT_CREDENTIALS: readonly [SandboxCredential, SandboxCredential] = Object.freeze([
  Object.freeze({
    clientId: "sandbox-client-id",
    clientSecret: "sandbox-client-secret",
    channel: "sandbox-channel",
    scope: "payments",
  }),
  Object.freeze({
    clientId: "sandbox-limited-client-id",
    clientSecret: "sandbox-limited-client-secret",
    channel: "sandbox-channel",
    scope: "reports",
  }),
]) as readonly [SandboxCredential, SandboxCredential]

/** A credential resolved against the sandbox defaults: who is calling and for which seller. */
export interface Account {
  clientId: string
  channel: string
  sellerId: string
  entity: string
  scopes: ReadonlySet<string>
  /** The granted scopes as one string, in their configured order. */
  scope: string
  secretDigest: Buffer
}

/** Hashing both sides first gives equal lengths, so the comparison time says nothing about the secret. */
export function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest()
}

export function sameSecret(expected: Buffer, candidate: string): boolean {
  return timingSafeEqual(expected, digest(candidate))
}

export function splitScope(scope: string): string[] {
  return scope.split(" ").filter((s) => s.length > 0)
}

export class CredentialStore {
  private readonly byId = new Map<string, Account>()

  constructor(credentials: readonly SandboxCredential[], defaults: { sellerId: string; entity: string }) {
    for (const c of credentials) {
      const scopes = splitScope(c.scope)
      this.byId.set(c.clientId, {
        clientId: c.clientId,
        channel: c.channel,
        sellerId: c.sellerId ?? defaults.sellerId,
        entity: c.entity ?? defaults.entity,
        scopes: new Set(scopes),
        scope: scopes.join(" "),
        secretDigest: digest(c.clientSecret),
      })
    }
  }

  account(clientId: string): Account | undefined {
    return this.byId.get(clientId)
  }

  /** The account when id and secret (and, for T2, channel) all match; one vague failure otherwise. */
  authenticate(clientId: string, clientSecret: string, channel?: string): Account | undefined {
    const account = this.byId.get(clientId)
    if (!account) return undefined
    const secretOk = sameSecret(account.secretDigest, clientSecret)
    if (!secretOk) return undefined
    if (channel !== undefined && channel !== account.channel) return undefined
    return account
  }

  sellerIds(): string[] {
    return [...new Set([...this.byId.values()].map((a) => a.sellerId))]
  }
}

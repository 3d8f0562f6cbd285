import type { Reply } from "./reply"

/**
 * Stored answers of successful create and cancel calls, per seller and idempotency key. A retry with the
 * same body gets the first answer byte for byte (status included); a different body under the same key is
 * a conflict. `request_id` is left out of the comparison: a retry from another process may change it.
 */
interface Stored {
  fingerprint: string
  reply: Reply
}

/** One stored answer as the state file keeps it; `key` is "<seller_id>:<idempotency_key in lower case>". */
export interface IdempotencyEntry extends Stored {
  key: string
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Stored>()

  lookup(
    sellerId: string,
    key: string,
    fingerprint: string
  ): { kind: "none" } | { kind: "replay"; reply: Reply } | { kind: "conflict" } {
    const stored = this.entries.get(`${sellerId}:${key.toLowerCase()}`)
    if (!stored) return { kind: "none" }
    if (stored.fingerprint !== fingerprint) return { kind: "conflict" }
    return {
      kind: "replay",
      reply: { ...stored.reply, headers: { ...stored.reply.headers, "idempotent-replayed": "true" } },
    }
  }

  save(sellerId: string, key: string, fingerprint: string, reply: Reply): void {
    this.entries.set(`${sellerId}:${key.toLowerCase()}`, { fingerprint, reply })
  }

  reset(): void {
    this.entries.clear()
  }

  /** Every stored answer, oldest first (for the state file). */
  list(): IdempotencyEntry[] {
    return [...this.entries].map(([key, stored]) => ({ key, fingerprint: stored.fingerprint, reply: stored.reply }))
  }

  /** Puts back answers read from the state file. */
  restore(entries: readonly IdempotencyEntry[]): void {
    for (const e of entries) this.entries.set(e.key, { fingerprint: e.fingerprint, reply: e.reply })
  }
}

/** Operation name plus the body with sorted keys, without request_id: equal bodies, equal strings. */
export function fingerprint(operation: string, body: Record<string, unknown>): string {
  const { request_id: _ignored, ...rest } = body
  return `${operation}:${canonical(rest)}`
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`
  if (typeof value === "object" && value !== null) {
    const obj = value as Record<string, unknown>
    const keys = Object.keys(obj).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(",")}}`
  }
  return JSON.stringify(value)
}

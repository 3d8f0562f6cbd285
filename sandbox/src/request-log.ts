/**
 * The last N platform requests, for tests that assert what a client sent (token reuse, retries with the
 * same idempotency key...). Only identifiers are kept: never headers, bodies, secrets or tokens.
 */
export interface RequestLogEntry {
  at: string
  method: string
  path: string
  status: number
  duration_ms: number
  request_id?: string
  idempotency_key?: string
  /** Token interface: of the token endpoint called, or of the token a payment call carried. */
  iface?: "t1" | "t2"
  /** The injected fault that shaped the answer, if any: "status", "reset", "hold" (and nothing else) or "delay". */
  fault?: string
}

/** What handlers learn about a request that the log wants; filled in as the request is processed. */
export interface RequestNote {
  iface?: "t1" | "t2"
  request_id?: string
  idempotency_key?: string
  fault?: string
}

interface Stored {
  atMs: number
  method: string
  path: string
  status: number
  durationMs: number
  note: RequestNote
}

export const REQUEST_LOG_CAPACITY = 10_000

export class RequestLog {
  private readonly ring: (Stored | undefined)[]
  private next = 0
  private size = 0

  constructor(private readonly capacity = REQUEST_LOG_CAPACITY) {
    this.ring = new Array<Stored | undefined>(capacity)
  }

  /** Hot path: one small object, no formatting (timestamps are rendered when read). */
  add(atMs: number, method: string, path: string, status: number, durationMs: number, note: RequestNote): void {
    this.ring[this.next] = { atMs, method, path, status, durationMs, note }
    this.next = (this.next + 1) % this.capacity
    if (this.size < this.capacity) this.size++
  }

  /** Oldest first; `path` is a prefix, `method` case-insensitive. */
  query(filter: { path?: string; method?: string } = {}): RequestLogEntry[] {
    const method = filter.method?.toUpperCase()
    const out: RequestLogEntry[] = []
    const start = (this.next - this.size + this.capacity) % this.capacity
    for (let i = 0; i < this.size; i++) {
      const s = this.ring[(start + i) % this.capacity] as Stored
      if (filter.path && !s.path.startsWith(filter.path)) continue
      if (method && s.method !== method) continue
      out.push(render(s))
    }
    return out
  }

  clear(): void {
    this.ring.fill(undefined)
    this.next = 0
    this.size = 0
  }
}

function render(s: Stored): RequestLogEntry {
  const entry: RequestLogEntry = {
    at: new Date(s.atMs).toISOString(),
    method: s.method,
    path: s.path,
    status: s.status,
    duration_ms: Math.round(s.durationMs * 1000) / 1000,
  }
  if (s.note.request_id !== undefined) entry.request_id = s.note.request_id
  if (s.note.idempotency_key !== undefined) entry.idempotency_key = s.note.idempotency_key
  if (s.note.iface !== undefined) entry.iface = s.note.iface
  if (s.note.fault !== undefined) entry.fault = s.note.fault
  return entry
}

import { randomUUID } from "node:crypto"
import { Agent, request, type Dispatcher } from "undici"
import { startSandbox } from "../../../../sandbox/src"
import { createRefpayClient, type RefpayClient } from "../client"
import type { RefpayClientConfig, RefpayTokenInterface } from "../config"
import type { CreatePaymentInput } from "../requests"

/**
 * Test fixture for the contract tests: a real sandbox over loopback, its /__sandbox controls, and client configs
 * for both token interfaces with small retry delays. Not a spec file itself.
 */

export const DEFAULT_CREDS = {
  clientId: "sandbox-client-id",
  clientSecret: "sandbox-client-secret",
  channel: "sandbox-channel",
  scope: "payments",
}
export const LIMITED_CREDS = {
  clientId: "sandbox-limited-client-id",
  clientSecret: "sandbox-limited-client-secret",
  channel: "sandbox-channel",
  scope: "reports",
}

export const T1_TOKEN_PATH = "/auth/token"
export const T2_TOKEN_PATH = "/backoffice/v1/token"
export const CREATE_PATH = "/dpm/payments-gwproxy/v2/payments"
export const CANCEL_PATH = "/dpm/payments-gwproxy/v2/payments/cancel"
export const INFO_PREFIX = "/dpm/hub-payment-info/v1/payments/info/"

export const tokenPath = (iface: RefpayTokenInterface) => (iface === "t1" ? T1_TOKEN_PATH : T2_TOKEN_PATH)

export interface LoggedRequest {
  method: string
  path: string
  status: number
  request_id?: string
  idempotency_key?: string
  iface?: "t1" | "t2"
  fault?: string
}

export interface FaultSpec {
  path: string
  method?: string
  count?: number
  status?: number
  body?: unknown
  delay_ms?: number
  reset?: boolean
  when?: "before" | "after"
}

type SandboxOptions = NonNullable<Parameters<typeof startSandbox>[0]>
type RunningSandbox = Awaited<ReturnType<typeof startSandbox>>

export class SandboxFixture {
  private readonly controlAgent = new Agent({ connections: 2 })

  private constructor(readonly sandbox: RunningSandbox) {}

  static async start(options: Partial<SandboxOptions> = {}): Promise<SandboxFixture> {
    return new SandboxFixture(await startSandbox({ port: 0, ...options }))
  }

  /** A client config for the default (or given) credentials, fast retries, and no logger. */
  config(iface: RefpayTokenInterface, overrides: Partial<RefpayClientConfig> = {}): RefpayClientConfig {
    return {
      tokenInterface: iface,
      authUrl: this.sandbox.authUrl,
      backofficeUrl: this.sandbox.backofficeUrl,
      paymentsUrl: this.sandbox.paymentsUrl,
      ...DEFAULT_CREDS,
      // T1 sends no scope unless asked: the spec's T1 request has none.
      scope: iface === "t2" ? DEFAULT_CREDS.scope : undefined,
      retries: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
      ...overrides,
    }
  }

  async control<T = any>(
    method: "GET" | "POST" | "DELETE",
    path: string,
    body?: unknown
  ): Promise<{ status: number; body: T }> {
    const res = await request(`${this.sandbox.url}/__sandbox${path}`, {
      dispatcher: this.controlAgent,
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.body.text()
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T }
  }

  async addFault(spec: FaultSpec): Promise<void> {
    const res = await this.control("POST", "/faults", spec)
    if (res.status !== 201) throw new Error(`fault refused: ${JSON.stringify(res.body)}`)
  }

  async requests(path?: string): Promise<LoggedRequest[]> {
    const query = path ? `?path=${encodeURIComponent(path)}` : ""
    return (await this.control<{ requests: LoggedRequest[] }>("GET", `/requests${query}`)).body.requests
  }

  async payments(): Promise<Record<string, any>[]> {
    return (await this.control<{ payments: Record<string, any>[] }>("GET", "/payments")).body.payments
  }

  async advanceClockMs(ms: number): Promise<void> {
    const res = await this.control("POST", "/clock", { advance_ms: ms })
    if (res.status !== 200) throw new Error(`clock refused: ${JSON.stringify(res.body)}`)
  }

  async pay(paymentId: string): Promise<void> {
    const res = await this.control("POST", `/payments/${paymentId}/pay`)
    if (res.status !== 200) throw new Error(`pay refused: ${JSON.stringify(res.body)}`)
  }

  async nextReference(body: { entity?: string; reference: string }): Promise<void> {
    const res = await this.control("POST", "/next-reference", body)
    if (res.status !== 200) throw new Error(`next-reference refused: ${JSON.stringify(res.body)}`)
  }

  reset(): void {
    this.sandbox.reset()
  }

  async close(): Promise<void> {
    await this.controlAgent.close()
    await this.sandbox.close()
  }
}

/**
 * A dispatcher that records the Authorization header of every request, so tests can see which token (and which
 * form of it) the client sent, and check that no error ever shows it.
 */
export function recordingDispatcher(): { dispatcher: Dispatcher; authorizations: string[]; close(): Promise<void> } {
  const agent = new Agent({ connections: 10 })
  const authorizations: string[] = []
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    const headers = options.headers as Record<string, string> | undefined
    if (headers && typeof headers === "object" && !Array.isArray(headers) && headers.authorization) {
      authorizations.push(headers.authorization)
    }
    return dispatch(options, handler)
  })
  return { dispatcher, authorizations, close: () => agent.close() }
}

/** A valid creation input with fresh identifiers (no requestId: the client makes one); a test sets what it is about. */
export function newPayment(overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
  return {
    paymentId: randomUUID(),
    orderId: `order-${randomUUID().slice(0, 8)}`,
    amountCents: 1999,
    idempotencyKey: randomUUID(),
    ...overrides,
  }
}

/** Settles a promise that is expected to reject and returns the error, failing the test if it resolves. */
export async function failure<E = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise
  } catch (error) {
    return error as E
  }
  throw new Error("expected a rejection, got a result")
}

export interface SandboxSuite {
  /** The suite's sandbox (started in beforeAll, reset before every test). */
  fx: SandboxFixture
  /** A client for this sandbox, closed after the test. */
  client(iface: RefpayTokenInterface, overrides?: Partial<RefpayClientConfig>): RefpayClient
  /** Something else to close after the test (a recording dispatcher, a stray client). */
  cleanup(...closers: (() => Promise<void>)[]): void
}

/**
 * The set-up every contract suite shares: one sandbox per file, reset before each test, and every client or
 * dispatcher a test made closed after it, so jest exits on its own.
 */
export function useSandboxSuite(): SandboxSuite {
  let current: SandboxFixture | undefined
  let closers: (() => Promise<void>)[] = []
  beforeAll(async () => {
    current = await SandboxFixture.start()
  })
  afterAll(async () => {
    await current?.close()
  })
  beforeEach(() => current!.reset())
  afterEach(async () => {
    await Promise.all(closers.map((close) => close()))
    closers = []
  })
  const fx = new Proxy({} as SandboxFixture, {
    get(_target, property) {
      const value = (current as unknown as Record<PropertyKey, unknown>)[property]
      return typeof value === "function" ? value.bind(current) : value
    },
  })
  return {
    fx,
    client(iface, overrides = {}) {
      const created = createRefpayClient(fx.config(iface, overrides))
      closers.push(() => created.close())
      return created
    },
    cleanup(...more) {
      closers.push(...more)
    },
  }
}

import { randomUUID } from "node:crypto"
import { createRefpayClient } from "../client"
import { RefpayAuthenticationError } from "../errors"
import {
  CREATE_PATH,
  failure,
  INFO_PREFIX,
  newPayment,
  recordingDispatcher,
  SandboxFixture,
  tokenPath,
  useSandboxSuite,
} from "./sandbox-fixture"

/**
 * Token lifetime against the sandbox, for both interfaces: one token reused for many calls, refreshed just before
 * expiry, one refresh shared by concurrent callers, and a 401 (token expired on the platform's clock) cured by one
 * forced refresh and one repeat.
 */

const { fx, client, cleanup } = useSandboxSuite()

describe.each(["t1", "t2"] as const)("%s token lifecycle", (iface) => {
  it("N payment calls use 1 token request", async () => {
    const c = client(iface)
    const created = await c.createPayment(newPayment())
    for (let i = 0; i < 5; i++) expect((await c.getPayment(created.paymentId)).status).toBe("WAITING")
    expect(await fx.requests(tokenPath(iface))).toHaveLength(1)
    expect((await fx.requests("/dpm/")).every((r) => r.status < 300 && r.iface === iface)).toBe(true)
    expect(await fx.requests("/dpm/")).toHaveLength(6)
    expect(c.tokenRequests()).toBe(1)
  })

  it("refreshes once the injected clock enters the window before expiry (3600 s token, 60 s window)", async () => {
    let now = Date.now()
    const c = client(iface, { now: () => now })
    const { paymentId } = await c.createPayment(newPayment())
    now += (3600 - 60) * 1000 - 1000
    await c.getPayment(paymentId)
    expect(await fx.requests(tokenPath(iface))).toHaveLength(1)
    now += 1000
    await c.getPayment(paymentId)
    expect(await fx.requests(tokenPath(iface))).toHaveLength(2)
    await c.getPayment(paymentId)
    expect(c.tokenRequests()).toBe(2)
  })

  it("20 concurrent first calls share one token request; 20 more inside the window share one refresh", async () => {
    let now = Date.now()
    const c = client(iface, { now: () => now })
    const created = await Promise.all(Array.from({ length: 20 }, () => c.createPayment(newPayment())))
    expect(created.every((p) => p.status === "WAITING")).toBe(true)
    expect(await fx.requests(tokenPath(iface))).toHaveLength(1)

    now += 3_550_000
    await Promise.all(created.map((p) => c.getPayment(p.paymentId)))
    expect(await fx.requests(tokenPath(iface))).toHaveLength(2)
    expect(c.tokenRequests()).toBe(2)
    expect((await fx.payments()).length).toBe(20)
  })

  it("401 after the platform's clock passes expiry: one forced refresh, one repeat, success", async () => {
    const rec = recordingDispatcher()
    cleanup(rec.close)
    const c = client(iface, { dispatcher: rec.dispatcher })
    const { paymentId } = await c.createPayment(newPayment())
    await fx.advanceClockMs(3601 * 1000)

    const status = await c.getPayment(paymentId)
    expect(status.paymentId).toBe(paymentId)
    expect(status.status).toBe("WAITING")
    expect((await fx.requests(tokenPath(iface))).map((r) => r.status)).toEqual([200, 200])
    expect((await fx.requests(INFO_PREFIX)).map((r) => r.status)).toEqual([401, 200])
    expect(c.tokenRequests()).toBe(2)
    // The repeat carried the new token, not the refused one.
    expect(rec.authorizations).toHaveLength(3)
    expect(rec.authorizations[1]).toBe(rec.authorizations[0])
    expect(rec.authorizations[2]).not.toBe(rec.authorizations[1])
  })

  it("concurrent 401s for the same expired token cause a single refresh", async () => {
    const c = client(iface)
    const ids = await Promise.all(Array.from({ length: 8 }, () => c.createPayment(newPayment())))
    await fx.advanceClockMs(3601 * 1000)
    await Promise.all(ids.map((p) => c.getPayment(p.paymentId)))
    expect(await fx.requests(tokenPath(iface))).toHaveLength(2)
    const reads = (await fx.requests(INFO_PREFIX)).map((r) => r.status).sort()
    expect(reads).toEqual([...Array(8).fill(200), ...Array(8).fill(401)])
  })

  it("a second 401 after the refresh is thrown as RefpayAuthenticationError (no loop)", async () => {
    await fx.addFault({ path: CREATE_PATH, method: "POST", status: 401, count: 5 })
    const c = client(iface)
    const error = await failure<RefpayAuthenticationError>(c.createPayment(newPayment()))
    expect(error).toBeInstanceOf(RefpayAuthenticationError)
    expect(error.code).toBe("Unauthorized")
    expect(error.message).toBe("REFPAY create payment failed (401 Unauthorized): INJECTED_FAULT")
    expect((await fx.requests(CREATE_PATH)).map((r) => r.status)).toEqual([401, 401])
    expect(c.tokenRequests()).toBe(2)
    expect(await fx.payments()).toHaveLength(0)
  })
})

describe("T2 Authorization form (spec 5.4)", () => {
  it.each([
    ["bearer", "bearer", true],
    ["bare", "bare", true],
    ["both", "bare", true],
    ["both", "bearer", true],
    ["bare", "bearer", false],
    ["bearer", "bare", false],
  ] as const)("sandbox accepting %s, client sending %s -> success %s", async (accepted, form, ok) => {
    const sandbox = await SandboxFixture.start({ authorizationForm: accepted })
    const rec = recordingDispatcher()
    const c = createRefpayClient(sandbox.config("t2", { t2AuthorizationForm: form, dispatcher: rec.dispatcher }))
    try {
      const result = c.getPayment(randomUUID())
      const error = await failure<Error & { status?: number }>(result)
      // With a valid form the unknown payment is a 404; with a refused form it is a 401 twice.
      expect(error.status).toBe(ok ? 404 : 401)
      expect(rec.authorizations.every((a) => (form === "bearer" ? /^Bearer eyJ/.test(a) : /^eyJ/.test(a)))).toBe(true)
      expect(rec.authorizations).toHaveLength(ok ? 1 : 2)
      if (!ok)
        expect((error as RefpayAuthenticationError).body).toMatchObject({
          details: [{ description_detail: "INVALID_AUTHORIZATION_FORM" }],
        })
    } finally {
      await c.close()
      await rec.close()
      await sandbox.close()
    }
  })

  it("a T1 client always sends Bearer", async () => {
    const rec = recordingDispatcher()
    cleanup(rec.close)
    const c = client("t1", { t2AuthorizationForm: "bare", dispatcher: rec.dispatcher })
    await c.createPayment(newPayment())
    expect(rec.authorizations).toHaveLength(1)
    expect(rec.authorizations[0]).toMatch(/^Bearer eyJ/)
  })
})

import { createHmac } from "node:crypto"
import { startSandbox, type RunningSandbox } from "../src"
import {
  bearer,
  call,
  control,
  CREATE,
  deniedBody,
  LIMITED,
  paymentRequest,
  STATUS,
  stopSandbox,
  t1Token,
  t2Token,
} from "./support/client"

let sb: RunningSandbox

beforeAll(async () => {
  sb = await startSandbox({ port: 0 })
})
afterEach(() => sb.reset())
afterAll(() => stopSandbox(sb))

const unknownPayment = `${STATUS}00000000-0000-4000-8000-000000000000`

const unauthorized = (detail: string, description: string) =>
  deniedBody(401, "Unauthorized", "Unauthorized", description, detail)

/** A structurally valid token signed with someone else's key. */
function foreignToken(): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url")
  const now = Math.floor(Date.now() / 1000)
  const input = `${enc({ alg: "HS256", typ: "JWT" })}.${enc({
    sub: "sandbox-client-id",
    scope: "payments",
    env: "sandbox",
    iat: now,
    exp: now + 3600,
    jti: "x",
    iface: "t1",
  })}`
  return `${input}.${createHmac("sha256", "not-the-sandbox-key").update(input).digest("base64url")}`
}

describe("authentication of payment calls (spec 5, 7)", () => {
  it("reuses one T1 token for many calls", async () => {
    const token = await t1Token(sb)
    for (let i = 0; i < 3; i++) {
      const res = await call(sb.paymentsUrl, "GET", unknownPayment, { headers: bearer(token) })
      expect(res.status).toBe(404)
    }
    expect((await control(sb, "GET", "/tokens")).body).toEqual({ issued: 1, t1: 1, t2: 0 })
  })

  it("401 MISSING_TOKEN without an Authorization header, with a WWW-Authenticate challenge", async () => {
    const res = await call(sb.paymentsUrl, "GET", unknownPayment)
    expect(res.status).toBe(401)
    expect(res.headers["www-authenticate"]).toBe('Bearer error="invalid_token"')
    expect(res.body).toEqual(unauthorized("MISSING_TOKEN", "Missing access token"))
  })

  it("401 MALFORMED_TOKEN for garbage", async () => {
    const res = await call(sb.paymentsUrl, "GET", unknownPayment, { headers: bearer("not.a.jwt!") })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(unauthorized("MALFORMED_TOKEN", "Malformed access token"))
  })

  it("401 INVALID_TOKEN for a token signed with another key", async () => {
    const res = await call(sb.paymentsUrl, "GET", unknownPayment, { headers: bearer(foreignToken()) })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(unauthorized("INVALID_TOKEN", "Invalid access token"))
  })

  it("401 INVALID_TOKEN for a tampered payload", async () => {
    const [h, , s] = (await t1Token(sb)).split(".")
    const payload = Buffer.from(JSON.stringify({ sub: "sandbox-client-id", scope: "payments reports" })).toString(
      "base64url"
    )
    const res = await call(sb.paymentsUrl, "GET", unknownPayment, { headers: bearer(`${h}.${payload}.${s}`) })
    expect(res.status).toBe(401)
    expect(res.body.details[0].description_detail).toBe("INVALID_TOKEN")
  })

  it("401 EXPIRED_TOKEN once the sandbox clock passes exp; a new token works", async () => {
    const token = await t1Token(sb)
    await control(sb, "POST", "/clock", { advance_ms: 3_590_000 })
    expect((await call(sb.paymentsUrl, "GET", unknownPayment, { headers: bearer(token) })).status).toBe(404)
    await control(sb, "POST", "/clock", { advance_ms: 10_000 })
    const res = await call(sb.paymentsUrl, "GET", unknownPayment, { headers: bearer(token) })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(unauthorized("EXPIRED_TOKEN", "Expired access token"))
    const fresh = await t1Token(sb)
    expect((await call(sb.paymentsUrl, "GET", unknownPayment, { headers: bearer(fresh) })).status).toBe(404)
  })

  it("403 Forbidden for a token without the payments scope (limited credentials), T1 and T2", async () => {
    for (const token of [await t1Token(sb, LIMITED), await t2Token(sb, LIMITED)]) {
      const res = await call(sb.paymentsUrl, "POST", CREATE, { headers: bearer(token), json: paymentRequest() })
      expect(res.status).toBe(403)
      expect(res.body).toEqual(
        deniedBody(
          403,
          "Forbidden",
          "Forbidden",
          "Insufficient scope",
          'scope "payments" is required for this resource'
        )
      )
    }
    expect((await control(sb, "GET", "/payments")).body.count).toBe(0)
  })

  it("default form 'both': Bearer for T1 and T2 tokens, the bare token for T2 tokens only", async () => {
    const t1 = await t1Token(sb)
    const t2 = await t2Token(sb)
    expect((await call(sb.paymentsUrl, "GET", unknownPayment, { headers: bearer(t1) })).status).toBe(404)
    expect((await call(sb.paymentsUrl, "GET", unknownPayment, { headers: bearer(t2) })).status).toBe(404)
    expect((await call(sb.paymentsUrl, "GET", unknownPayment, { headers: { authorization: t2 } })).status).toBe(404)
    expect(
      (await call(sb.paymentsUrl, "GET", unknownPayment, { headers: { authorization: `bearer ${t2}` } })).status
    ).toBe(404)
    const bareT1 = await call(sb.paymentsUrl, "GET", unknownPayment, { headers: { authorization: t1 } })
    expect(bareT1.status).toBe(401)
    expect(bareT1.body.details[0].description_detail).toBe("INVALID_AUTHORIZATION_FORM")
  })

  it("records the interface of the token a payment call carried, never the token", async () => {
    const t2 = await t2Token(sb)
    await call(sb.paymentsUrl, "GET", unknownPayment, { headers: { authorization: t2 } })
    const log = await control(sb, "GET", `/requests?path=${encodeURIComponent(STATUS)}`)
    expect(log.body.requests).toHaveLength(1)
    expect(log.body.requests[0]).toMatchObject({ method: "GET", status: 404, iface: "t2" })
    expect(log.text).not.toContain(t2)
  })
})

describe.each([
  ["bearer", { bearer: 404, bare: 401 }],
  ["bare", { bearer: 401, bare: 404 }],
] as const)("strict authorization form %s", (form, expected) => {
  let strict: RunningSandbox
  beforeAll(async () => {
    strict = await startSandbox({ port: 0, authorizationForm: form })
  })
  afterAll(() => strict.close())

  it("accepts only its form", async () => {
    const token = await t2Token(strict)
    const withBearer = await call(strict.paymentsUrl, "GET", unknownPayment, { headers: bearer(token) })
    const bare = await call(strict.paymentsUrl, "GET", unknownPayment, { headers: { authorization: token } })
    expect(withBearer.status).toBe(expected.bearer)
    expect(bare.status).toBe(expected.bare)
    const refused = expected.bearer === 401 ? withBearer : bare
    expect(refused.body.details[0].description_detail).toBe("INVALID_AUTHORIZATION_FORM")
  })
})

describe("token lifetime option", () => {
  it("tokenTtlSeconds drives expires_in of both interfaces and exp", async () => {
    const short = await startSandbox({ port: 0, tokenTtlSeconds: 60 })
    try {
      const t1 = await call(short.authUrl, "POST", "/token", {
        form: {
          grant_type: "client_credentials",
          client_id: "sandbox-client-id",
          client_secret: "sandbox-client-secret",
        },
      })
      expect(t1.body.expires_in).toBe(60)
      const token = await t2Token(short)
      expect((await call(short.paymentsUrl, "GET", unknownPayment, { headers: bearer(token) })).status).toBe(404)
      await control(short, "POST", "/clock", { advance_ms: 60_000 })
      expect((await call(short.paymentsUrl, "GET", unknownPayment, { headers: bearer(token) })).status).toBe(401)
    } finally {
      await short.close()
    }
  })
})

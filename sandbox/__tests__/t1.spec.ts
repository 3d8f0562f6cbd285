import { startSandbox, type RunningSandbox } from "../src"
import { call, LIMITED, MAIN, stopSandbox, t1Form } from "./support/client"

let sb: RunningSandbox

beforeAll(async () => {
  sb = await startSandbox({ port: 0 })
})
afterAll(() => stopSandbox(sb))

const token = (form: Record<string, string>, headers?: Record<string, string>) =>
  call(sb.authUrl, "POST", "/token", { form, headers })

describe("T1 POST {auth_url}/token (spec 4.1)", () => {
  it("issues a Bearer JWT with expires_in 3600 (an integer) and the granted scope", async () => {
    const res = await token(t1Form())
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"])
    expect(res.body.token_type).toBe("Bearer")
    expect(res.body.expires_in).toBe(3600)
    expect(res.body.scope).toBe("payments")
    expect(res.headers["cache-control"]).toBe("no-store")
    const [header, payload] = (res.body.access_token as string).split(".")
    expect(JSON.parse(Buffer.from(header as string, "base64url").toString())).toEqual({ alg: "HS256", typ: "JWT" })
    const claims = JSON.parse(Buffer.from(payload as string, "base64url").toString())
    expect(claims).toMatchObject({ sub: "sandbox-client-id", scope: "payments", env: "sandbox", iface: "t1" })
    expect(claims.exp - claims.iat).toBe(3600)
    expect(typeof claims.jti).toBe("string")
  })

  it("grants the limited credential its own scope", async () => {
    const res = await token(t1Form(LIMITED))
    expect(res.status).toBe(200)
    expect(res.body.scope).toBe("reports")
  })

  it.each([
    ["grant_type", "grant_type is required"],
    ["client_id", "client_id is required"],
    ["client_secret", "client_secret is required"],
  ])("400 invalid_request naming a missing %s", async (field, description) => {
    const form = t1Form()
    delete form[field]
    const res = await token(form)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: "invalid_request", error_description: description })
  })

  it("400 invalid_request for an empty client_id", async () => {
    const res = await token({ ...t1Form(), client_id: "" })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: "invalid_request", error_description: "client_id is required" })
  })

  it("400 invalid_request for a repeated parameter", async () => {
    const raw = "grant_type=client_credentials&client_id=a&client_id=b&client_secret=s"
    const res = await call(sb.authUrl, "POST", "/token", {
      raw,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: "invalid_request", error_description: "client_id must not be repeated" })
  })

  it("400 invalid_request for a JSON body (wrong content type)", async () => {
    const res = await call(sb.authUrl, "POST", "/token", { json: t1Form() })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: "invalid_request",
      error_description: "Content-Type must be application/x-www-form-urlencoded",
    })
  })

  it("400 unsupported_grant_type for another grant", async () => {
    const res = await token({ ...t1Form(), grant_type: "password" })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: "unsupported_grant_type",
      error_description: "grant_type must be client_credentials",
    })
  })

  it("401 unauthorized_client for a wrong secret", async () => {
    const res = await token({ ...t1Form(), client_secret: "wrong" })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "unauthorized_client", error_description: "Invalid client credentials" })
  })

  it("401 unauthorized_client for unknown (e.g. production) credentials", async () => {
    const res = await token({ ...t1Form(), client_id: "prod-client-id", client_secret: "prod-secret" })
    expect(res.status).toBe(401)
    expect(res.body.error).toBe("unauthorized_client")
  })

  it("400 invalid_scope when asking for a scope that is not granted; a granted one is echoed", async () => {
    const refused = await token({ ...t1Form(), scope: "payments reports" })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({
      error: "invalid_scope",
      error_description: "scope reports is not granted to this client",
    })
    const ok = await token({ ...t1Form(), scope: "payments" })
    expect(ok.status).toBe(200)
    expect(ok.body.scope).toBe("payments")
  })

  it("ignores unrecognised parameters (RFC 6749 3.2)", async () => {
    const res = await token({ ...t1Form(), audience: "whatever" })
    expect(res.status).toBe(200)
  })

  it("405 with Allow for GET, in the T1 dialect", async () => {
    const res = await call(sb.authUrl, "GET", "/token")
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe("POST")
    expect(res.body).toEqual({ error: "invalid_request", error_description: "GET is not allowed on /auth/token" })
  })

  it("counts issued tokens per interface", async () => {
    sb.reset()
    await token(t1Form())
    await token(t1Form())
    const res = await call(sb.url, "GET", "/__sandbox/tokens")
    expect(res.body).toEqual({ issued: 2, t1: 2, t2: 0 })
  })
})

it("keeps MAIN as the default credential set of the contract page", () => {
  expect(MAIN).toEqual({
    clientId: "sandbox-client-id",
    clientSecret: "sandbox-client-secret",
    channel: "sandbox-channel",
    scope: "payments",
  })
  expect(LIMITED).toEqual({
    clientId: "sandbox-limited-client-id",
    clientSecret: "sandbox-limited-client-secret",
    channel: "sandbox-channel",
    scope: "reports",
  })
})

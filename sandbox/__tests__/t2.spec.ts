import { startSandbox, type RunningSandbox } from "../src"
import { call, deniedBody, LIMITED, MAIN, stopSandbox, T2_BODY, t2Headers } from "./support/client"

let sb: RunningSandbox

beforeAll(async () => {
  sb = await startSandbox({ port: 0 })
})
afterAll(() => stopSandbox(sb))

const token = (headers: Record<string, string>, json: unknown = T2_BODY) =>
  call(sb.backofficeUrl, "POST", "/v1/token", { headers, json })

describe("T2 POST {backoffice_url}/v1/token (spec 4.2)", () => {
  it('issues a token whose expires_in is the STRING "3600"', async () => {
    const res = await token(t2Headers())
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in"])
    expect(res.body.expires_in).toBe("3600")
    const claims = JSON.parse(
      Buffer.from((res.body.access_token as string).split(".")[1] as string, "base64url").toString()
    )
    expect(claims).toMatchObject({ sub: MAIN.clientId, scope: "payments", env: "sandbox", iface: "t2" })
  })

  it("accepts empty strings in every body field (rule 1)", async () => {
    const res = await token(t2Headers(), { branch: "", login: "", name: "", enrollment_number: "" })
    expect(res.status).toBe(200)
  })

  it("accepts filled body fields and a charset on the content type", async () => {
    const res = await call(sb.backofficeUrl, "POST", "/v1/token", {
      headers: { ...t2Headers(), "content-type": "application/json; charset=utf-8" },
      raw: JSON.stringify({ branch: "0001", login: "ops", name: "Ops Bot", enrollment_number: "42" }),
    })
    expect(res.status).toBe(200)
  })

  it.each(["client_id", "client_secret", "channel", "scope"])(
    "400 HeaderValidation naming a missing %s header",
    async (name) => {
      const headers = t2Headers()
      delete headers[name]
      const res = await token(headers)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(
        deniedBody(400, "HeaderValidation", "Bad Request", "Missing required header", `${name} header is required`)
      )
    }
  )

  it.each(["client_id", "client_secret", "channel", "scope"])(
    "400 HeaderValidation naming an empty %s header",
    async (name) => {
      const res = await token({ ...t2Headers(), [name]: "" })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(
        deniedBody(400, "HeaderValidation", "Bad Request", "Empty required header", `${name} header must not be empty`)
      )
    }
  )

  it("400 HeaderValidation for an invalid scope header", async () => {
    const res = await token({ ...t2Headers(), scope: 'pay"ments' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(
      deniedBody(400, "HeaderValidation", "Bad Request", "Invalid header", "scope header is invalid")
    )
  })

  it("400 naming Content-Type when the body is form-encoded", async () => {
    const res = await call(sb.backofficeUrl, "POST", "/v1/token", { headers: t2Headers(), form: { branch: "" } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(
      deniedBody(
        400,
        "HeaderValidation",
        "Bad Request",
        "Invalid header",
        "Content-Type header must be application/json"
      )
    )
  })

  it.each(["branch", "login", "name", "enrollment_number"])(
    "400 naming a missing body field %s (rule 2)",
    async (field) => {
      const body: Record<string, unknown> = { ...T2_BODY }
      delete body[field]
      const res = await token(t2Headers(), body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(
        deniedBody(400, "HeaderValidation", "Bad Request", "Invalid body field", `${field} is required`)
      )
    }
  )

  it("400 naming a null body field (rule 2)", async () => {
    const res = await token(t2Headers(), { ...T2_BODY, login: null })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(
      deniedBody(400, "HeaderValidation", "Bad Request", "Invalid body field", "login must not be null")
    )
  })

  it("400 naming a non-string body field", async () => {
    const res = await token(t2Headers(), { ...T2_BODY, enrollment_number: 42 })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(
      deniedBody(400, "HeaderValidation", "Bad Request", "Invalid body field", "enrollment_number must be a string")
    )
  })

  it("400 naming a body field that is not allowed (rule 4)", async () => {
    const res = await token(t2Headers(), { ...T2_BODY, role: "admin" })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(
      deniedBody(400, "HeaderValidation", "Bad Request", "Invalid body field", "role is not allowed")
    )
  })

  it("400 for invalid JSON and for a JSON array", async () => {
    const bad = await call(sb.backofficeUrl, "POST", "/v1/token", {
      headers: { ...t2Headers(), "content-type": "application/json" },
      raw: "{branch:",
    })
    expect(bad.body).toEqual(
      deniedBody(400, "HeaderValidation", "Bad Request", "Invalid body", "body must be valid JSON")
    )
    const array = await token(t2Headers(), [])
    expect(array.body).toEqual(
      deniedBody(400, "HeaderValidation", "Bad Request", "Invalid body field", "body must be an object")
    )
  })

  it("reports every problem at once, one details entry each", async () => {
    const headers = t2Headers()
    delete headers.channel
    const res = await token({ ...headers, scope: "" }, { branch: null })
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: { description_detail: string }) => d.description_detail)).toEqual([
      "channel header is required",
      "scope header must not be empty",
      "branch must not be null",
      "login is required",
      "name is required",
      "enrollment_number is required",
    ])
  })

  it.each([
    ["client_id", "unknown-client"],
    ["client_secret", "wrong-secret"],
    ["channel", "other-channel"],
  ])("401 Unauthorized INVALID_CREDENTIALS for a wrong %s", async (name, value) => {
    const res = await token({ ...t2Headers(), [name]: value })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(
      deniedBody(401, "Unauthorized", "Unauthorized", "Invalid credentials", "INVALID_CREDENTIALS")
    )
  })

  it("403 Forbidden when the scope header asks for a scope not granted", async () => {
    const res = await token(t2Headers(LIMITED, "payments"))
    expect(res.status).toBe(403)
    expect(res.body).toEqual(
      deniedBody(403, "Forbidden", "Forbidden", "Scope not granted", 'scope "payments" is not granted to this client')
    )
  })

  it("the limited credential gets a token for its own scope", async () => {
    const res = await token(t2Headers(LIMITED))
    expect(res.status).toBe(200)
  })

  it("405 in the T2 dialect for GET", async () => {
    const res = await call(sb.backofficeUrl, "GET", "/v1/token")
    expect(res.status).toBe(405)
    expect(res.body).toEqual(
      deniedBody(405, "MethodNotAllowed", "Method Not Allowed", "Method Not Allowed", "METHOD_NOT_ALLOWED")
    )
  })
})

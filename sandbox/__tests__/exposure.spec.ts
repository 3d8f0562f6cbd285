import { spawn } from "node:child_process"
import path from "node:path"
import { parseArgs, USAGE } from "../src/cli-args"
import { SandboxOptionsError, startSandbox, type RunningSandbox } from "../src"
import { agent, call, t1Form } from "./support/client"

// The sandbox on a host other than loopback, and behind a proxy. Sandboxes bound to 0.0.0.0 or :: here are only
// ever called through 127.0.0.1 (their url): no test sends anything to an address that is not loopback.

const TOKEN = "test-control-token-0123456789abcdef"
const FORWARDING = [
  ["forwarded", "for=203.0.113.7;proto=https"],
  ["x-forwarded-for", "203.0.113.7"],
  ["x-forwarded-host", "sandbox.example.com"],
  ["x-real-ip", "203.0.113.7"],
] as const

afterAll(() => agent.close())

function started(options: Parameters<typeof startSandbox>[0] = {}): Promise<{ sb: RunningSandbox; lines: string[] }> {
  const lines: string[] = []
  return startSandbox({ port: 0, logger: (line) => lines.push(line), ...options }).then((sb) => ({ sb, lines }))
}

const control = (sb: RunningSandbox, headers: Record<string, string> = {}, path = "/__sandbox/clock") =>
  call(sb.url, "GET", path, { headers })

describe("on loopback without a control token", () => {
  let sb: RunningSandbox
  let lines: string[]
  beforeAll(async () => ({ sb, lines } = await started()))
  afterAll(() => sb.close())

  it("serves the controls as before and warns about nothing", async () => {
    expect((await control(sb)).status).toBe(200)
    expect((await call(`http://127.0.0.1:${sb.port}`, "GET", "/__sandbox/payments")).status).toBe(200)
    expect(lines.join("\n")).not.toMatch(/warning/i)
  })

  it.each(FORWARDING)(
    "refuses a control call carrying %s (a proxy on this host) with 403 and a JSON body",
    async (name, value) => {
      const res = await call(sb.url, "POST", "/__sandbox/reset", { headers: { [name]: value } })
      expect(res.status).toBe(403)
      expect(res.headers["content-type"]).toMatch(/^application\/json/)
      expect(res.body).toEqual({
        error_code: "FORWARDED_REQUEST",
        message: expect.stringContaining("control token"),
        details: [],
      })
      expect(res.body.message).toContain("--control-token")
    }
  )

  it("a token the sandbox was not given does not open the controls to a forwarded call", async () => {
    const res = await control(sb, { "x-forwarded-for": "203.0.113.7", "x-refpay-sandbox-token": TOKEN })
    expect(res.status).toBe(403)
    expect(res.body.error_code).toBe("FORWARDED_REQUEST")
  })

  it("leaves the platform routes alone: a forwarded T1 token call and a 404 answer as before", async () => {
    const token = await call(sb.authUrl, "POST", "/token", {
      form: t1Form(),
      headers: { "x-forwarded-for": "203.0.113.7" },
    })
    expect(token.status).toBe(200)
    expect(typeof token.body.access_token).toBe("string")
    const missing = await call(sb.url, "GET", "/nothing-here", { headers: { "x-forwarded-for": "203.0.113.7" } })
    expect(missing.status).toBe(404)
  })
})

describe("on a host that is not loopback", () => {
  it.each(["0.0.0.0", "::", "10.0.0.1", "192.168.1.20"])(
    "refuses to start on %s without a control token",
    async (host) => {
      const outcome = await startSandbox({ port: 0, host }).then(
        async (sb) => {
          await sb.close() // it should not have started: do not leave it listening
          return sb
        },
        (err: unknown) => err
      )
      expect(outcome).toBeInstanceOf(SandboxOptionsError)
      expect((outcome as Error).message).toMatch(/control token.*REFPAY_SANDBOX_CONTROL_TOKEN.*--control-token/s)
    }
  )

  it("refuses a control token too short to be one", async () => {
    const outcome = await startSandbox({ port: 0, host: "0.0.0.0", controlToken: "short" }).then(
      async (sb) => {
        await sb.close()
        return sb
      },
      (err: unknown) => err
    )
    expect(outcome).toBeInstanceOf(SandboxOptionsError)
    expect((outcome as Error).message).toContain("Sandbox option controlToken must be")
  })

  describe("0.0.0.0 with a control token (called through 127.0.0.1 only)", () => {
    let sb: RunningSandbox
    let lines: string[]
    beforeAll(async () => ({ sb, lines } = await started({ host: "0.0.0.0", controlToken: TOKEN })))
    afterAll(() => sb.close())

    it("is reached at 127.0.0.1", () => {
      expect(sb.url).toBe(`http://127.0.0.1:${sb.port}`)
    })

    it("warns that the platform API takes the documented test credentials from anyone who can reach it", () => {
      const warning = lines.find((l) => /warning/i.test(l))
      expect(warning).toBeDefined()
      expect(warning).toContain("0.0.0.0")
      expect(warning).toMatch(/test credentials/)
      expect(warning).toContain("sandbox-client-id")
      expect(warning).toMatch(/anyone who can reach/)
      expect(warning).not.toContain(TOKEN)
    })

    it("answers a control call without the token, or with a wrong one, 403", async () => {
      const none = await control(sb)
      expect(none.status).toBe(403)
      expect(none.body).toEqual({
        error_code: "CONTROL_TOKEN_REQUIRED",
        message: expect.stringContaining("x-refpay-sandbox-token"),
        details: [],
      })
      for (const wrong of [TOKEN.slice(0, -1), `${TOKEN}x`, TOKEN.replace(/f$/, "e"), "", "Bearer"]) {
        const res = await control(sb, { "x-refpay-sandbox-token": wrong })
        expect(res.status).toBe(403)
        expect(res.body.error_code).toBe(wrong === "" ? "CONTROL_TOKEN_REQUIRED" : "CONTROL_TOKEN_INVALID")
      }
      expect((await control(sb, { authorization: `Bearer ${TOKEN}0` })).status).toBe(403)
      expect((await control(sb, { authorization: `Basic ${TOKEN}` })).status).toBe(403)
    })

    it("accepts the token in x-refpay-sandbox-token or Authorization: Bearer", async () => {
      expect((await control(sb, { "x-refpay-sandbox-token": TOKEN })).status).toBe(200)
      expect((await control(sb, { authorization: `Bearer ${TOKEN}` })).status).toBe(200)
      expect((await control(sb, { authorization: `bearer ${TOKEN}` })).status).toBe(200)
      const reset = await call(sb.url, "POST", "/__sandbox/reset", { headers: { "x-refpay-sandbox-token": TOKEN } })
      expect(reset.status).toBe(200)
    })

    it("accepts a forwarded control call that carries the token", async () => {
      for (const [name, value] of FORWARDING) {
        expect((await control(sb, { [name]: value, "x-refpay-sandbox-token": TOKEN })).status).toBe(200)
      }
    })

    it("serves the platform API as before, without the control token", async () => {
      const token = await call(sb.authUrl, "POST", "/token", { form: t1Form() })
      expect(token.status).toBe(200)
    })
  })

  it("warns on stderr when it was given no logger", async () => {
    const write = jest.spyOn(process.stderr, "write").mockImplementation(() => true)
    let sb: RunningSandbox | undefined
    try {
      sb = await startSandbox({ port: 0, host: "0.0.0.0", controlToken: TOKEN })
      const written = write.mock.calls.map(([chunk]) => String(chunk)).join("")
      expect(written).toMatch(/refpay-sandbox: WARNING: listening on 0\.0\.0\.0 .*test credentials/)
    } finally {
      write.mockRestore()
      await sb?.close()
    }
  })

  it(":: with a control token warns too", async () => {
    const { sb, lines } = await started({ host: "::", controlToken: TOKEN })
    try {
      expect(lines.some((l) => /warning/i.test(l) && l.includes("::"))).toBe(true)
      expect((await call(`http://127.0.0.1:${sb.port}`, "GET", "/__sandbox/clock")).status).toBe(403)
      expect(
        (
          await call(`http://127.0.0.1:${sb.port}`, "GET", "/__sandbox/clock", {
            headers: { "x-refpay-sandbox-token": TOKEN },
          })
        ).status
      ).toBe(200)
    } finally {
      await sb.close()
    }
  })
})

describe("on loopback with a control token", () => {
  let sb: RunningSandbox
  let lines: string[]
  beforeAll(async () => ({ sb, lines } = await started({ controlToken: TOKEN })))
  afterAll(() => sb.close())

  it("requires the token once it is given, and warns about nothing", async () => {
    expect((await control(sb)).status).toBe(403)
    expect((await control(sb, { "x-refpay-sandbox-token": TOKEN })).status).toBe(200)
    expect(lines.join("\n")).not.toMatch(/warning/i)
  })
})

describe("CLI", () => {
  it("--control-token and REFPAY_SANDBOX_CONTROL_TOKEN give the control token; the flag wins", () => {
    expect(parseArgs(["--control-token", TOKEN])).toEqual({ help: false, options: { port: 4010, controlToken: TOKEN } })
    expect(parseArgs([], { REFPAY_SANDBOX_CONTROL_TOKEN: TOKEN })).toEqual({
      help: false,
      options: { port: 4010, controlToken: TOKEN },
    })
    const parsed = parseArgs([`--control-token=${TOKEN}-flag`], { REFPAY_SANDBOX_CONTROL_TOKEN: TOKEN })
    expect(parsed.help === false && parsed.options.controlToken).toBe(`${TOKEN}-flag`)
  })

  it("--help explains the control token and what a host that is not loopback exposes", () => {
    expect(USAGE).toMatch(/^ {2}--control-token <token> /m)
    expect(USAGE).toContain("REFPAY_SANDBOX_CONTROL_TOKEN")
    expect(USAGE).toContain("x-refpay-sandbox-token")
    expect(USAGE).toMatch(/not\s+loopback/)
  })

  const bin = path.join(__dirname, "..", "bin", "refpay-sandbox.js")
  const cleanEnv = () =>
    Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("REFPAY_SANDBOX_")))

  /** Runs the CLI until it prints its listening line (resolves with it) or exits (resolves with the exit code). */
  function run(args: string[], env: Record<string, string | undefined>) {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"], env })
    let stdout = ""
    let stderr = ""
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()))
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    const outcome = new Promise<{ line?: string; code?: number | null }>((resolve) => {
      child.stdout.on("data", (c: Buffer) => {
        stdout += c.toString()
        if (stdout.includes("\n")) resolve({ line: stdout.trim() })
      })
      void exited.then((code) => resolve({ code }))
    })
    return { child, outcome, exited, stderr: () => stderr }
  }

  it("refuses --host 0.0.0.0 without a control token: exit 2 and a message saying what to do", async () => {
    const cli = run(["--port", "0", "--host", "0.0.0.0"], cleanEnv())
    try {
      const outcome = await cli.outcome
      expect(outcome.line).toBeUndefined()
      expect(outcome.code).toBe(2)
      expect(cli.stderr()).toMatch(/refpay-sandbox: .*0\.0\.0\.0.*control token/s)
      expect(cli.stderr()).toContain("REFPAY_SANDBOX_CONTROL_TOKEN")
    } finally {
      cli.child.kill("SIGTERM")
      await cli.exited
    }
  }, 20_000)

  it("--host 0.0.0.0 with REFPAY_SANDBOX_CONTROL_TOKEN: warns on stderr, serves controls to the token only", async () => {
    const cli = run(["--port", "0", "--host", "0.0.0.0"], { ...cleanEnv(), REFPAY_SANDBOX_CONTROL_TOKEN: TOKEN })
    try {
      const outcome = await cli.outcome
      const match = /auth_url=(http:\/\/127\.0\.0\.1:\d+)\/auth /.exec(outcome.line ?? "")
      expect(match).not.toBeNull()
      const base = match?.[1] as string
      expect(cli.stderr()).toMatch(/WARNING.*0\.0\.0\.0.*test credentials/s)
      expect(cli.stderr()).not.toContain(TOKEN)
      expect((await call(base, "GET", "/__sandbox/clock")).status).toBe(403)
      expect(
        (await call(base, "GET", "/__sandbox/clock", { headers: { "x-refpay-sandbox-token": TOKEN } })).status
      ).toBe(200)
    } finally {
      cli.child.kill("SIGTERM")
    }
    expect(await cli.exited).toBe(0)
  }, 20_000)
})

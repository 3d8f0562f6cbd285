import { spawn } from "node:child_process"
import path from "node:path"
import { CliError, parseArgs } from "../src/cli-args"
import { DEFAULT_CREDENTIALS } from "../src"
import { agent, call } from "./support/client"

afterAll(() => agent.close())

describe("parseArgs", () => {
  it("defaults to port 4010 and the default credentials", () => {
    expect(parseArgs([])).toEqual({ help: false, options: { port: 4010 } })
  })

  it("reads every flag, in both --flag value and --flag=value forms", () => {
    const parsed = parseArgs([
      "--port=4011",
      "--host",
      "127.0.0.1",
      "--webhook-url",
      "http://localhost:9000/hooks",
      "--webhook-secret=abc",
      "--webhook-auth",
      "basic",
      "--webhook-retries",
      "2",
      "--webhook-backoff-ms",
      "50",
      "--token-ttl",
      "60",
      "--expiry-days",
      "0.5",
      "--expired-status",
      "EXPIRED",
      "--authorization-form",
      "bearer",
    ])
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 4011,
        host: "127.0.0.1",
        webhookUrl: "http://localhost:9000/hooks",
        webhookSecret: "abc",
        webhookAuth: "basic",
        webhookRetries: 2,
        webhookBackoffMs: 50,
        tokenTtlSeconds: 60,
        expiryDays: 0.5,
        expiredStatus: "EXPIRED",
        authorizationForm: "bearer",
      },
    })
  })

  it("credential flags override the default set and keep the limited one", () => {
    const parsed = parseArgs([
      "--client-id",
      "id",
      "--client-secret",
      "secret",
      "--channel",
      "web",
      "--scope",
      "payments reports",
    ])
    expect(parsed.help).toBe(false)
    if (parsed.help) return
    expect(parsed.options.credentials).toEqual([
      { clientId: "id", clientSecret: "secret", channel: "web", scope: "payments reports" },
      DEFAULT_CREDENTIALS[1],
    ])
  })

  it("--help wins; unknown flags, missing values and bad values are errors", () => {
    expect(parseArgs(["--port", "1", "--help"])).toEqual({ help: true })
    expect(() => parseArgs(["--nope"])).toThrow(new CliError("Unknown option --nope. Run with --help for the list."))
    expect(() => parseArgs(["--port"])).toThrow("Option --port needs a value.")
    expect(() => parseArgs(["--port", "--host"])).toThrow("Option --port needs a value.")
    expect(() => parseArgs(["--port", "http"])).toThrow('--port must be a whole number, got "http".')
    expect(() => parseArgs(["--webhook-auth", "token"])).toThrow(
      '--webhook-auth must be one of header, basic, got "token".'
    )
  })
})

describe("bin/refpay-sandbox.js", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "prints the three base URLs, serves, and exits 0 on %s",
    async (signal) => {
      const bin = path.join(__dirname, "..", "bin", "refpay-sandbox.js")
      const child = spawn(process.execPath, [bin, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] })
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
      try {
        const line = await new Promise<string>((resolve, reject) => {
          let out = ""
          child.stdout.on("data", (chunk: Buffer) => {
            out += chunk.toString()
            if (out.includes("\n")) resolve(out.trim())
          })
          child.on("exit", () => reject(new Error(`exited early: ${out}`)))
        })
        const match =
          /^REFPAY sandbox listening: auth_url=(http:\/\/localhost:(\d+))\/auth backoffice_url=\1\/backoffice payments_url=\1$/.exec(
            line
          )
        expect(match).not.toBeNull()
        const res = await call(match?.[1] as string, "GET", "/__sandbox/clock")
        expect(res.status).toBe(200)
      } finally {
        child.kill(signal)
      }
      expect(await exited).toBe(0)
    },
    20_000
  )
})

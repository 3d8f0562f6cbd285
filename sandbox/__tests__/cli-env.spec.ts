import { spawnSync } from "node:child_process"
import path from "node:path"
import { CliError, ENVIRONMENT_VARIABLES, parseArgs, USAGE } from "../src/cli-args"
import { DEFAULT_CREDENTIALS } from "../src"

describe("parseArgs: environment variables", () => {
  const env = {
    REFPAY_SANDBOX_STATE: "/tmp/sandbox.json",
    REFPAY_SANDBOX_WEBHOOK_SECRET: "env-secret",
    REFPAY_SANDBOX_CLIENT_ID: "env-id",
    REFPAY_SANDBOX_CLIENT_SECRET: "env-client-secret",
    REFPAY_SANDBOX_CHANNEL: "env-channel",
    REFPAY_SANDBOX_SCOPE: "payments reports",
  }

  it("gives the state file, the webhook secret and the credential overrides", () => {
    expect(parseArgs([], env)).toEqual({
      help: false,
      options: {
        port: 4010,
        stateFile: "/tmp/sandbox.json",
        webhookSecret: "env-secret",
        credentials: [
          { clientId: "env-id", clientSecret: "env-client-secret", channel: "env-channel", scope: "payments reports" },
          DEFAULT_CREDENTIALS[1],
        ],
      },
    })
  })

  it("a flag wins over its variable; the others still apply", () => {
    const parsed = parseArgs(["--webhook-secret", "flag-secret", "--client-id=flag-id", "--state", "other.json"], env)
    expect(parsed.help).toBe(false)
    if (parsed.help) return
    expect(parsed.options.webhookSecret).toBe("flag-secret")
    expect(parsed.options.stateFile).toBe("other.json")
    expect(parsed.options.credentials?.[0]).toEqual({
      clientId: "flag-id",
      clientSecret: "env-client-secret",
      channel: "env-channel",
      scope: "payments reports",
    })
  })

  it("one variable changes only its field; empty variables count as unset; other variables are ignored", () => {
    const parsed = parseArgs([], {
      REFPAY_SANDBOX_CLIENT_SECRET: "only-this",
      REFPAY_SANDBOX_WEBHOOK_SECRET: "",
      REFPAY_SANDBOX_PORT: "1",
    })
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 4010,
        credentials: [{ ...DEFAULT_CREDENTIALS[0], clientSecret: "only-this" }, DEFAULT_CREDENTIALS[1]],
      },
    })
  })

  it("the help text names every variable and every flag", () => {
    expect(ENVIRONMENT_VARIABLES).toEqual([
      "REFPAY_SANDBOX_STATE",
      "REFPAY_SANDBOX_CONTROL_TOKEN",
      "REFPAY_SANDBOX_WEBHOOK_SECRET",
      "REFPAY_SANDBOX_CLIENT_ID",
      "REFPAY_SANDBOX_CLIENT_SECRET",
      "REFPAY_SANDBOX_CHANNEL",
      "REFPAY_SANDBOX_SCOPE",
    ])
    for (const name of ENVIRONMENT_VARIABLES) expect(USAGE).toContain(name)
    const flags = [
      "port",
      "host",
      "state",
      "control-token",
      "webhook-url",
      "webhook-secret",
      "webhook-auth",
      "webhook-retries",
      "webhook-backoff-ms",
      "token-ttl",
      "expiry-days",
      "expired-status",
      "authorization-form",
      "client-id",
      "client-secret",
      "channel",
      "scope",
      "help",
    ]
    for (const flag of flags) expect(USAGE).toMatch(new RegExp(`^  --${flag}[ =]`, "m"))
  })
})

describe("parseArgs: node:util tokens, our messages", () => {
  it("short -h is --help; positionals, -- and unknown short flags are refused", () => {
    expect(parseArgs(["-h"])).toEqual({ help: true })
    expect(() => parseArgs(["4010"])).toThrow(new CliError("Unexpected argument 4010. Run with --help for the list."))
    expect(() => parseArgs(["--", "--port"])).toThrow("Unexpected argument --.")
    expect(() => parseArgs(["-p", "1"])).toThrow("Unknown option -p. Run with --help for the list.")
    expect(() => parseArgs(["--nope=1"])).toThrow("Unknown option --nope=1.")
  })

  it("values may start with one dash or be empty with =; the last of a repeated flag wins", () => {
    expect(() => parseArgs(["--expiry-days", "-1"])).not.toThrow()
    expect(parseArgs(["--webhook-secret="])).toEqual({ help: false, options: { port: 4010, webhookSecret: "" } })
    expect(parseArgs(["--port", "1", "--port=2"])).toEqual({ help: false, options: { port: 2 } })
  })
})

describe("bin/refpay-sandbox.js", () => {
  const bin = path.join(__dirname, "..", "bin", "refpay-sandbox.js")

  it("--help prints the usage text; a bad flag exits 2 with the message on stderr", () => {
    const help = spawnSync(process.execPath, [bin, "--help"], { encoding: "utf8" })
    expect(help.status).toBe(0)
    expect(help.stdout).toBe(`${USAGE}\n`)
    const bad = spawnSync(process.execPath, [bin, "--port", "x"], { encoding: "utf8" })
    expect(bad.status).toBe(2)
    expect(bad.stderr).toBe('refpay-sandbox: --port must be a whole number, got "x".\n')
  }, 20_000)

  it("a state file that is not one stops it with exit code 2 and a message naming the file", () => {
    const res = spawnSync(process.execPath, [bin, "--port", "0", "--state", __filename], { encoding: "utf8" })
    expect(res.status).toBe(2)
    expect(res.stderr).toContain(
      `refpay-sandbox: The state file ${__filename} is not a REFPAY sandbox state (not JSON:`
    )
  }, 20_000)
})

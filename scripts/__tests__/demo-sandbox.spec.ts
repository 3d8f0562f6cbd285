// `npm run demo` starts the REFPAY sandbox with the demo's webhook secret: through the environment, never on the
// command line (visible in `ps`) nor in .demo/logs/sandbox.log (startProcess writes the command line there).
import type { ChildProcess } from "node:child_process"
import { randomUUID } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { startReceiver, waitFor } from "../../sandbox/__tests__/support/client"

/* eslint-disable @typescript-eslint/no-require-imports */
const { sandboxLaunch, startSandboxProcess, DEMO_SECRETS } = require("../lib/demo-stack") as {
  sandboxLaunch: (o: object) => { command: string; args: string[]; env: Record<string, string | undefined> }
  startSandboxProcess: (o: object) => Promise<ChildProcess>
  DEMO_SECRETS: Record<string, string>
}
const { stopProcess } = require("../lib/demo-processes") as {
  stopProcess: (child: ChildProcess, graceMs?: number) => Promise<void>
}
/* eslint-enable @typescript-eslint/no-require-imports */

const root = path.resolve(__dirname, "..", "..")
const secret = DEMO_SECRETS.REFPAY_WEBHOOK_SECRET as string

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "refpay-demo-sandbox-"))
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

describe("the demo's sandbox launch", () => {
  it("passes the webhook secret in the environment only, and the state file .demo/sandbox.json by flag", () => {
    const launch = sandboxLaunch({
      root,
      port: 4010,
      webhookUrl: "http://127.0.0.1:9000/hooks/refpay",
      stateFile: "/x/.demo/sandbox.json",
    })
    expect(launch.args.join(" ")).not.toContain(secret)
    expect(launch.args.some((arg) => /secret/i.test(arg))).toBe(false)
    expect(launch.env.REFPAY_SANDBOX_WEBHOOK_SECRET).toBe(secret)
    expect(launch.args).toEqual(
      expect.arrayContaining([
        "--state",
        "/x/.demo/sandbox.json",
        "--webhook-url",
        "http://127.0.0.1:9000/hooks/refpay",
      ])
    )
  })

  it("the running sandbox signs webhooks with it, yet neither its command line nor its log shows it", async () => {
    const receiver = await startReceiver()
    const logFile = path.join(dir, "sandbox.log")
    const stateFile = path.join(dir, "sandbox.json")
    const child = await startSandboxProcess({ root, port: 0, webhookUrl: receiver.url, stateFile, logFile })
    try {
      const url = /payments_url=(\S+)/.exec(fs.readFileSync(logFile, "utf8"))?.[1] as string
      expect(url).toMatch(/^http:\/\/localhost:\d+$/)
      const config = await (await fetch(`${url}/__sandbox/webhooks/config`)).json()
      expect(config).toMatchObject({ url: receiver.url, secret_set: true })

      const token = await (
        await fetch(`${url}/auth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=client_credentials&client_id=sandbox-client-id&client_secret=sandbox-client-secret",
        })
      ).json()
      const created = await fetch(`${url}/dpm/payments-gwproxy/v2/payments`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token.access_token}` },
        body: JSON.stringify({
          idempotency_key: randomUUID(),
          request_id: randomUUID(),
          order_id: "demo-launch-1",
          data: {
            amount: 1000,
            currency: "EUR",
            payment: { payment_id: randomUUID(), payment_method: "CASH_PAYMENT", brand: "REFPAY" },
          },
        }),
      })
      expect(created.status).toBe(201)
      const hook = await waitFor(() => receiver.received[0], 5_000)
      expect(hook.headers["x-refpay-webhook-secret"]).toBe(secret)

      const cmdline = fs.readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0").join(" ")
      expect(cmdline).toContain("--state")
      expect(cmdline).not.toContain(secret)
    } finally {
      await stopProcess(child, 5_000)
      await receiver.close()
    }
    const log = fs.readFileSync(logFile, "utf8")
    expect(log).toMatch(/^\$ .*refpay-sandbox\.js --port 0 --webhook-url \S+ --state \S+sandbox\.json /m)
    expect(log).not.toContain(secret)
    expect(log).not.toMatch(/webhook-secret/)
    // Stopped with SIGTERM: the state was saved, without the secret.
    const saved = fs.readFileSync(stateFile, "utf8")
    expect(JSON.parse(saved).payments).toHaveLength(1)
    expect(saved).not.toContain(secret)
  }, 30_000)
})

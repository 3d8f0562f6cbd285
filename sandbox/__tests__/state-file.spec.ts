import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { SandboxStateError, startSandbox, type RunningSandbox } from "../src"
import { STATE_FORMAT } from "../src/persistence"
import {
  agent,
  bearer,
  call,
  control,
  CREATE,
  createPayment,
  paymentRequest,
  sleep,
  startReceiver,
  STATUS,
  t1Token,
  waitFor,
} from "./support/client"

let dir: string
let file: string
const running: RunningSandbox[] = []

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  const sb = await startSandbox({ port: 0, stateFile: file, stateSaveDelayMs: 10, ...options })
  running.push(sb)
  return sb
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "refpay-sandbox-state-"))
  file = path.join(dir, "sandbox.json")
})
afterEach(async () => {
  await Promise.all(running.splice(0).map((sb) => sb.close()))
  fs.rmSync(dir, { recursive: true, force: true })
})
afterAll(() => agent.close())

const readFile = () => JSON.parse(fs.readFileSync(file, "utf8"))

describe("state file (stateFile / --state)", () => {
  it("a restarted sandbox keeps payments readable and payable, replays, the clock and the webhook URL; no secret on disk", async () => {
    const receiver = await startReceiver()
    try {
      const first = await start()
      expect(first.stateFile).toBe(file)
      await control(first, "POST", "/webhooks/config", { url: receiver.url, secret: "whsec-never-on-disk", retries: 0 })
      const token = await t1Token(first)
      const body = paymentRequest(2500)
      const created = await createPayment(first, token, body)
      expect(created.status).toBe(201)
      await control(first, "POST", "/clock", { advance_days: 1 })
      await first.close()

      const text = fs.readFileSync(file, "utf8")
      expect(text).not.toContain("whsec-never-on-disk")
      const saved = JSON.parse(text)
      expect(saved).toMatchObject({
        format: STATE_FORMAT,
        version: 1,
        webhooks: { url: receiver.url, secret_set: true, retries: 0 },
      })
      expect(saved.payments).toHaveLength(1)
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)

      const second = await start({ webhookSecret: "whsec-from-start-up" })
      const again = await t1Token(second) // the signing key is per process: tokens do not survive a restart
      const id = body.data.payment.payment_id
      const status = await call(second.paymentsUrl, "GET", `${STATUS}${id}`, { headers: bearer(again) })
      expect(status.status).toBe(200)
      expect(status.body).toMatchObject({
        status: "WAITING",
        amount: "2500",
        additional_data: created.body.additional_data,
      })

      // Same key, same body: the first answer, byte for byte.
      const replay = await call(second.paymentsUrl, "POST", CREATE, { headers: bearer(again), json: body })
      expect(replay.status).toBe(201)
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.text).toBe(created.text)
      // The reference stays taken, the clock stays a day ahead, the webhook URL is kept.
      const reuse = await control(second, "POST", "/next-reference", {
        reference: created.body.additional_data.reference,
      })
      expect(reuse.status).toBe(409)
      const clock = await control(second, "GET", "/clock")
      expect(clock.body.offset_ms).toBe(86_400_000)
      expect((await control(second, "GET", "/webhooks/config")).body).toEqual({
        url: receiver.url,
        auth: "header",
        secret_set: true,
        retries: 0,
        backoff_ms: 1000,
        timeout_ms: 10_000,
      })

      const paid = await control(second, "POST", `/payments/${id}/pay`)
      expect(paid.status).toBe(200)
      expect(paid.body.status).toBe("APPROVED")
      const hook = await waitFor(() => receiver.received.find((r) => r.body.event_type === "APPROVED_TRANSACTIONS"))
      expect(hook.headers["x-refpay-webhook-secret"]).toBe("whsec-from-start-up")
      await waitFor(() => readFile().payments[0].status === "APPROVED")
    } finally {
      await receiver.close()
    }
  })

  it("saves soon after a change, without waiting for close()", async () => {
    const sb = await start()
    expect(fs.existsSync(file)).toBe(false) // nothing changed yet
    const body = paymentRequest()
    expect((await createPayment(sb, await t1Token(sb), body)).status).toBe(201)
    const saved = await waitFor(() => (fs.existsSync(file) ? readFile() : undefined))
    expect(saved.payments.map((p: { paymentId: string }) => p.paymentId)).toEqual([body.data.payment.payment_id])
    expect(saved.idempotency).toHaveLength(1)
  })

  it("start-up options win over the saved webhook set-up", async () => {
    const first = await start()
    await control(first, "POST", "/webhooks/config", { url: "http://127.0.0.1:1/saved", auth: "basic" })
    await first.close()
    const second = await start({ webhookUrl: "http://127.0.0.1:1/given" })
    expect((await control(second, "GET", "/webhooks/config")).body).toMatchObject({
      url: "http://127.0.0.1:1/given",
      auth: "basic",
    })
  })

  it("reset empties the file too", async () => {
    const sb = await start()
    await createPayment(sb, await t1Token(sb))
    await waitFor(() => fs.existsSync(file) && readFile().payments.length === 1)
    await control(sb, "POST", "/reset")
    await waitFor(() => readFile().payments.length === 0)
  })

  it("temp files left by a crash beside the state file are ignored, and removed when their process is gone", async () => {
    const first = await start()
    const body = paymentRequest()
    await createPayment(first, await t1Token(first), body)
    await first.close()
    const deadPid = 99_999_999 // above any pid_max: no such process
    fs.writeFileSync(`${file}.${deadPid}.tmp`, '{"format":"refpay-sandbox-state","payme') // cut short mid-write
    fs.writeFileSync(`${file}.tmp`, "\u0000garbage")

    const second = await start()
    const read = await control(second, "GET", `/payments/${body.data.payment.payment_id}`)
    expect(read.status).toBe(200)
    expect(fs.existsSync(`${file}.${deadPid}.tmp`)).toBe(false)
    expect(fs.existsSync(`${file}.tmp`)).toBe(true) // not ours: left alone
  })

  it("refuses a state file that is not one, naming it, and leaves it as it is", async () => {
    fs.writeFileSync(file, '{"payments": [')
    await expect(startSandbox({ port: 0, stateFile: file })).rejects.toThrow(SandboxStateError)
    await expect(startSandbox({ port: 0, stateFile: file })).rejects.toThrow(
      `The state file ${file} is not a REFPAY sandbox state`
    )
    fs.writeFileSync(
      file,
      JSON.stringify({
        format: STATE_FORMAT,
        version: 1,
        clock_offset_ms: 0,
        webhooks: {},
        payments: [],
        idempotency: [],
        references: [],
      })
    )
    await expect(startSandbox({ port: 0, stateFile: file })).rejects.toThrow(
      "webhooks.url is not an http(s) URL or null"
    )
    expect(fs.readFileSync(file, "utf8")).toContain('"webhooks":{}')
  })

  it("creates the file's folder and starts empty from an empty file", async () => {
    file = path.join(dir, "nested", "deeper", "sandbox.json")
    const sb = await start()
    await createPayment(sb, await t1Token(sb))
    await sb.close()
    expect(readFile().payments).toHaveLength(1)
    fs.writeFileSync(file, "")
    const again = await start()
    expect((await control(again, "GET", "/payments")).body.count).toBe(0)
  })
})

describe("refpay-sandbox --state, killed with SIGKILL", () => {
  const bin = path.join(__dirname, "..", "bin", "refpay-sandbox.js")
  const children: ChildProcess[] = []
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL")
  })

  function launch(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, [bin, "--port", "0", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    })
    children.push(child)
    return new Promise((resolve, reject) => {
      let out = ""
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const match = /payments_url=(\S+)/.exec(out)
        if (match) resolve({ child, url: match[1] as string })
      })
      child.on("exit", (code) => reject(new Error(`sandbox exited (${code}) before listening: ${out}`)))
    })
  }

  it("keeps every payment saved before the kill; every read of the file during the writes is a whole file", async () => {
    // First run: the file comes from the environment variable.
    const { child, url } = await launch([], { REFPAY_SANDBOX_STATE: file })
    const sb = { authUrl: `${url}/auth`, paymentsUrl: url, url } as RunningSandbox
    const token = await t1Token(sb)
    const ids: string[] = []
    let reads = 0
    for (let i = 0; i < 15; i++) {
      const body = paymentRequest(100 + i)
      expect((await createPayment(sb, token, body)).status).toBe(201)
      ids.push(body.data.payment.payment_id)
      await sleep(25) // the CLI saves at most every 100 ms: let several saves happen
      if (fs.existsSync(file)) {
        expect(readFile().format).toBe(STATE_FORMAT) // throws on a torn file
        reads++
      }
    }
    await waitFor(() => fs.existsSync(file) && readFile().payments.length === ids.length, 5_000)
    expect(reads).toBeGreaterThan(0)
    const exited = new Promise((r) => child.once("exit", r))
    child.kill("SIGKILL")
    await exited

    // Second run: the same file through the flag.
    const restarted = await launch(["--state", file])
    const sb2 = { authUrl: `${restarted.url}/auth`, paymentsUrl: restarted.url, url: restarted.url } as RunningSandbox
    const token2 = await t1Token(sb2)
    for (const id of ids) {
      const res = await call(sb2.paymentsUrl, "GET", `${STATUS}${id}`, { headers: bearer(token2) })
      expect(res.body.status).toBe("WAITING")
    }
    const paid = await control(sb2, "POST", `/payments/${ids[0]}/pay`)
    expect(paid.body.status).toBe("APPROVED")
  }, 30_000)
})

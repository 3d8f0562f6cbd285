import { spawn, type ChildProcess } from "node:child_process"
import path from "node:path"

export interface SandboxProcess {
  url: string
  authUrl: string
  paymentsUrl: string
  stop(): Promise<void>
}

/**
 * The sandbox in a process of its own, started through its CLI as a developer would: the client under test and
 * the server then do not share one event loop, so latencies measure the client, not the scheduler. Extra CLI flags
 * (e.g. `--token-ttl`) go in `args`, secrets in `env` (REFPAY_SANDBOX_WEBHOOK_SECRET).
 */
export function startSandboxProcess(
  options: { args?: string[]; env?: Record<string, string> } = {}
): Promise<SandboxProcess> {
  const bin = path.join(__dirname, "..", "sandbox", "bin", "refpay-sandbox.js")
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, "--port", "0", "--host", "127.0.0.1", ...(options.args ?? [])],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, ...options.env },
    }
  )
  // Whatever happens to the bench, the sandbox does not outlive it.
  const killOnExit = () => child.kill("SIGKILL")
  process.once("exit", killOnExit)
  return new Promise((resolve, reject) => {
    let output = ""
    child.once("exit", (code) => reject(new Error(`sandbox exited with code ${code}: ${output}`)))
    child.stdout!.setEncoding("utf8")
    child.stdout!.on("data", (chunk: string) => {
      output += chunk
      const match = output.match(/auth_url=(\S+) backoffice_url=\S+ payments_url=(\S+)/)
      if (!match) return
      child.removeAllListeners("exit")
      resolve({
        url: match[2],
        authUrl: match[1],
        paymentsUrl: match[2],
        stop: () =>
          new Promise((done) => {
            process.off("exit", killOnExit)
            if (child.exitCode !== null || child.signalCode !== null) return done()
            child.once("exit", () => done())
            child.kill("SIGTERM")
          }),
      })
    })
  })
}

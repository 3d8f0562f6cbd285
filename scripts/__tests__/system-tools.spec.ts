import { spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const tools = require("../lib/system-tools") as {
  ensureDebianProgram(o: {
    command: string
    pkg: string
    envVar: string
    candidates: string[]
    log?: (l: string) => void
  }): string
  findExecutable(envVar: string, candidates: string[]): string | null
  isRoot(): boolean
  waitForReadyLine(
    child: unknown,
    o: { name: string; ready: RegExp; streams: string[]; timeoutMs: number; logFile?: string }
  ): Promise<void>
}

let dir: string
const savedPath = process.env.PATH

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "refpay-system-tools-"))
})
afterEach(() => {
  process.env.PATH = savedPath
  delete process.env.REFPAY_TEST_PROGRAM
  fs.rmSync(dir, { recursive: true, force: true })
})

/**
 * A stand-in apt-get first on PATH: it records its arguments, refuses `install` until `update` has run (the stale
 * package lists of a fresh machine), then "installs" the program by creating it.
 */
function fakeAptGet(program: string): string {
  const calls = path.join(dir, "calls")
  const script = `#!/bin/sh
echo "$*" >> "${calls}"
case "$1" in
  update) touch "${dir}/updated" ;;
  install) [ -f "${dir}/updated" ] || exit 100; printf '#!/bin/sh\\n' > "${program}"; chmod +x "${program}" ;;
esac
`
  fs.mkdirSync(path.join(dir, "bin"))
  fs.writeFileSync(path.join(dir, "bin", "apt-get"), script, { mode: 0o755 })
  process.env.PATH = `${path.join(dir, "bin")}:${savedPath}`
  return calls
}

describe("ensureDebianProgram", () => {
  it("finds the program through its variable first, then the candidates", () => {
    const program = path.join(dir, "prog")
    fs.writeFileSync(program, "")
    expect(tools.findExecutable("REFPAY_TEST_PROGRAM", [path.join(dir, "missing"), program])).toBe(program)
    process.env.REFPAY_TEST_PROGRAM = "/nonexistent/prog"
    expect(tools.findExecutable("REFPAY_TEST_PROGRAM", [program])).toBe(program)
    const other = path.join(dir, "other")
    fs.writeFileSync(other, "")
    process.env.REFPAY_TEST_PROGRAM = other
    expect(tools.findExecutable("REFPAY_TEST_PROGRAM", [program])).toBe(other)
  })

  const asRoot = tools.isRoot() ? it : it.skip
  asRoot("installs the package when the program is missing, updating the package lists once when install fails", () => {
    const program = path.join(dir, "prog")
    const calls = fakeAptGet(program)
    const lines: string[] = []
    const found = tools.ensureDebianProgram({
      command: "prog",
      pkg: "prog-pkg",
      envVar: "REFPAY_TEST_PROGRAM",
      candidates: [program],
      log: (l) => lines.push(l),
    })
    expect(found).toBe(program)
    expect(fs.readFileSync(calls, "utf8").trim().split("\n")).toEqual([
      "install -y -qq --no-install-recommends prog-pkg",
      "update -qq",
      "install -y -qq --no-install-recommends prog-pkg",
    ])
    expect(lines).toEqual(["Installing Debian's prog-pkg package (apt-get)..."])
  })

  asRoot("says so when the package installed no such program", () => {
    fakeAptGet(path.join(dir, "elsewhere"))
    expect(() =>
      tools.ensureDebianProgram({
        command: "prog",
        pkg: "prog-pkg",
        envVar: "REFPAY_TEST_PROGRAM",
        candidates: [path.join(dir, "prog")],
        log: () => {},
      })
    ).toThrow("apt-get installed prog-pkg but no prog executable was found")
  })
})

describe("waitForReadyLine", () => {
  const node = (code: string) => spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "pipe"] })

  it("resolves on the ready line of any watched stream and keeps logging what follows", async () => {
    const logFile = path.join(dir, "log")
    const child = node(
      `console.log("booting"); setTimeout(() => { console.error("now ready"); setTimeout(() => { console.log("after"); process.exit(0) }, 50) }, 50)`
    )
    await tools.waitForReadyLine(child, {
      name: "stub",
      ready: /ready/,
      streams: ["stdout", "stderr"],
      timeoutMs: 10_000,
      logFile,
    })
    await new Promise((resolve) => child.once("exit", resolve))
    // Every line of both streams is kept. Their order across the two pipes is not guaranteed (a busy machine read
    // "after", written to stdout 50 ms after "now ready" on stderr, first).
    expect(fs.readFileSync(logFile, "utf8").split("\n").sort()).toEqual(["", "after", "booting", "now ready"])
  })

  it("rejects when the program exits first", async () => {
    const child = node(`console.log("no config"); process.exit(3)`)
    await expect(
      tools.waitForReadyLine(child, { name: "stub", ready: /ready/, streams: ["stdout"], timeoutMs: 10_000 })
    ).rejects.toThrow("stub exited with code 3 while starting")
  })

  it("rejects and kills the program when it is not ready in time", async () => {
    const child = node(`setInterval(() => {}, 1000)`)
    await expect(
      tools.waitForReadyLine(child, { name: "stub", ready: /ready/, streams: ["stdout"], timeoutMs: 200 })
    ).rejects.toThrow("stub did not start in 200 ms")
    await new Promise((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once("exit", resolve)
    )
    expect(child.signalCode).toBe("SIGKILL")
  })
})

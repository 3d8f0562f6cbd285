import { spawn, spawnSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cpuSecondsWithChildren, treeCpuSeconds } = require("../lib/cpu-time") as {
  cpuSecondsWithChildren(): number | null
  treeCpuSeconds(pid?: number): number | null
}

/** Node code that spins until its process has used `seconds` of CPU itself, however busy the machine is. */
const spinning = (seconds: number) =>
  `const end = ${seconds * 1e6}; while (process.cpuUsage().user + process.cpuUsage().system < end) {}`

/** A child that spins until it has used `seconds` of CPU itself. */
function spin(seconds: number): Promise<void> {
  const code = spinning(seconds)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", code], { stdio: "ignore" })
    child.on("error", reject)
    child.on("exit", () => resolve())
  })
}

describe("the run's CPU-seconds (scripts/lib/cpu-time.js)", () => {
  it("counts a child's CPU once the child has ended, with the run's own", async () => {
    const before = cpuSecondsWithChildren()
    expect(before).not.toBeNull()
    await spin(0.5)
    const after = cpuSecondsWithChildren()!
    // The child's half second, to the clock tick; node's own start-up adds some more.
    expect(after - before!).toBeGreaterThanOrEqual(0.49)
    expect(after - before!).toBeLessThan(5)
  })
})

describe("a process tree's CPU-seconds (treeCpuSeconds)", () => {
  it("counts a child still running, which the reaped children's count does not", async () => {
    const before = treeCpuSeconds()!
    const reapedBefore = cpuSecondsWithChildren()!
    // The child spins 0.5 s, says so, and stays until it is killed.
    const child = spawn(process.execPath, ["-e", `${spinning(0.5)}; console.log("spun"); setInterval(() => {}, 1000)`])
    try {
      await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()))
      expect(treeCpuSeconds()! - before).toBeGreaterThanOrEqual(0.49)
      expect(cpuSecondsWithChildren()! - reapedBefore).toBeLessThan(0.49)
    } finally {
      child.kill()
    }
  })
})

describe("a phase's own CPU-seconds (scripts/lib/cpu-of.js)", () => {
  const cpuOf = path.join(__dirname, "..", "lib", "cpu-of.js")

  it("writes what the command and the processes it started used, and passes the command's exit code on", () => {
    const cpuFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cpu-of-")), "cpu.txt")
    // The command spins 0.3 s itself and starts a grandchild that spins 0.4 s more, then exits with 3.
    const grandchild = JSON.stringify(spinning(0.4))
    const command = `require("node:child_process").spawnSync(process.execPath, ["-e", ${grandchild}]); ${spinning(0.3)}; process.exit(3)`
    const run = spawnSync(process.execPath, [cpuOf, cpuFile, process.execPath, "-e", command], { encoding: "utf8" })
    expect(run.status).toBe(3)
    const seconds = Number(fs.readFileSync(cpuFile, "utf8"))
    expect(seconds).toBeGreaterThanOrEqual(0.69)
    expect(seconds).toBeLessThan(5)
  })
})

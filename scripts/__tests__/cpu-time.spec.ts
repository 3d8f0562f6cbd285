import { spawn } from "node:child_process"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cpuSecondsWithChildren } = require("../lib/cpu-time") as { cpuSecondsWithChildren(): number | null }

/** A child that spins until it has used `seconds` of CPU itself, however busy the machine is. */
function spin(seconds: number): Promise<void> {
  const code = `const end = ${seconds * 1e6}; while (process.cpuUsage().user + process.cpuUsage().system < end) {}`
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

// `npm test` ends with each failure's digest above its closing line (scripts/jest-count-reporter.js): run real jest
// on a throwaway folder holding a passing, a failing and a broken suite, and read what the reporter wrote.
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

const root = path.resolve(__dirname, "..", "..")
const reporter = path.join(root, "scripts", "jest-count-reporter.js")

function runJestOn(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "count-reporter-"))
  try {
    const config = { rootDir: dir, testEnvironment: "node", reporters: [reporter], transform: {} }
    fs.writeFileSync(path.join(dir, "jest.config.json"), JSON.stringify(config))
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text)
    const countsFile = path.join(dir, "counts.json")
    const args = [require.resolve("jest/bin/jest", { paths: [root] }), "--ci", "--watchman=false"]
    try {
      execFileSync(process.execPath, args, {
        cwd: dir,
        env: { ...process.env, JEST_COUNTS_FILE: countsFile },
        stdio: "pipe",
      })
    } catch {
      // jest exits 1 when a test fails: the counts file is what is looked at
    }
    return JSON.parse(fs.readFileSync(countsFile, "utf8"))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

describe("the jest count reporter", () => {
  it("counts passed, failed and broken suites, and keeps a digest of each failure without colour codes", () => {
    const counts = runJestOn({
      "ok.test.js": `test("adds", () => expect(1 + 1).toBe(2))`,
      "bad.test.js": `describe("money", () => {
        test("keeps cents", () => expect({ cents: 2498 }).toEqual({ cents: 2499 }))
        test("still adds", () => expect(2 + 2).toBe(4))
      })`,
      "broken.test.js": `require("./does-not-exist")\ntest("never runs", () => {})`,
    })
    expect(counts).toMatchObject({ passed: 2, failed: 1, brokenSuites: 1, total: 3 })
    expect(counts.failures).toHaveLength(2)
    const failed = counts.failures.find((f: any) => f.file === "bad.test.js")
    expect(failed.test).toBe("money keeps cents")
    expect(failed.message).toContain("expect(received).toEqual(expected)")
    expect(failed.message).toContain("2499")
    expect(failed.message).not.toContain("\u001b[")
    expect(failed.message.split("\n").length).toBeLessThanOrEqual(12)
    const broken = counts.failures.find((f: any) => f.file === "broken.test.js")
    expect(broken.test).toBe("(suite)")
    expect(broken.message).toContain("does-not-exist")
  })

  it("writes an empty digest when everything passes", () => {
    const counts = runJestOn({ "ok.test.js": `test("adds", () => expect(1 + 1).toBe(2))` })
    expect(counts).toMatchObject({ passed: 1, failed: 0, brokenSuites: 0, failures: [] })
  })
})

// The compatibility tier's bookkeeping (scripts/compat.js): which versions each option runs, and how a version's
// row becomes counts in `npm test`'s closing line (a snapshot reports, it never fails the run).
/* eslint-disable @typescript-eslint/no-require-imports */
const { counts, parseArgs, rowResult, SETS, versionInfo, VERSIONS } = require("../compat") as {
  counts: (rows: object[]) => { passed: number; failed: number; failures: { file: string; test: string }[] }
  parseArgs: (argv: string[]) => { versions: string[]; admin: boolean }
  rowResult: (row: object) => string
  SETS: Record<string, string[]>
  versionInfo: (version: string) => { node: number | null; gating: boolean }
  VERSIONS: Record<string, object>
}
/* eslint-enable @typescript-eslint/no-require-imports */

const step = (name: string, status: "passed" | "failed" | "n/a") => ({ name, status, seconds: 1, message: null })

describe("compatibility tier bookkeeping", () => {
  it("runs the oldest and newest supported versions by default, every minor's latest patch with all, 2.22 alone", () => {
    expect(parseArgs([]).versions).toEqual(["2.18.0", "2.21.2"])
    expect(parseArgs(["--compat"]).versions).toEqual(["2.18.0", "2.21.2"])
    expect(parseArgs(["--compat=all"]).versions).toEqual(["2.18.0", "2.19.0", "2.20.1", "2.21.2"])
    expect(parseArgs(["--compat=2.22"]).versions).toEqual([SETS["2.22"][0]])
    expect(parseArgs(["--compat=2.20.0,2.21.1", "--compat-admin"])).toMatchObject({
      versions: ["2.20.0", "2.21.1"],
      admin: true,
    })
    for (const version of Object.values(SETS).flat()) expect(VERSIONS).toHaveProperty([version])
  })

  it("runs the 2.22 snapshot under Node 22 without gating, and a released version gating", () => {
    expect(versionInfo(SETS["2.22"][0])).toMatchObject({ node: 22, gating: false })
    expect(versionInfo("2.18.0")).toMatchObject({ node: null, gating: true })
  })

  it("counts each step as a test, a failed set-up as one failure, and a snapshot's failures not at all", () => {
    const rows = [
      { version: "2.18.0", gating: true, steps: [], stage: "migrate", error: "Unable to resolve plugin" },
      { version: "2.21.2", gating: true, steps: [step("a", "passed"), step("b", "failed"), step("c", "n/a")] },
      { version: "2.22.0-snapshot", gating: false, steps: [step("a", "passed"), step("b", "failed")] },
    ]
    const tally = counts(rows)
    expect(tally).toMatchObject({ passed: 2, failed: 2 })
    expect(tally.failures.map((f) => `${f.file} ${f.test}`)).toEqual(["(compat 2.18.0) migrate", "(compat 2.21.2) b"])
    expect(rows.map(rowResult)).toEqual([
      "FAILED: migrate failed",
      "FAILED: 1 step(s) failed",
      "reported (not gating): 1 step(s) failed",
    ])
  })
})

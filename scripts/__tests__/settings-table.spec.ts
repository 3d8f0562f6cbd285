// The settings table of docs/configuration.md is generated from the one list of options (OPTION_FIELDS) and each
// option's prose (docs/settings/<option>.md) by scripts/settings-table.js, so it cannot drift from what the provider
// reads, defaults to and checks, and no option goes undescribed.
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { OPTION_FIELDS } from "../../src/config"

/* eslint-disable @typescript-eslint/no-require-imports */
const { renderSettingsTable, readSettingsProse, readTable, replaceTable, START, END } =
  require("../settings-table") as {
    renderSettingsTable: (fields: typeof OPTION_FIELDS, prose: Record<string, string>) => string
    readSettingsProse: (dir?: string) => Record<string, string>
    readTable: (readme: string) => string
    replaceTable: (readme: string, table: string) => string
    START: string
    END: string
  }
/* eslint-enable @typescript-eslint/no-require-imports */

const root = path.resolve(__dirname, "..", "..")
const prose = readSettingsProse()
const table = renderSettingsTable(OPTION_FIELDS, prose)
const row = (option: string) => table.split("\n").find((line) => line.includes(`| \`${option}\` |`))

const DOC = path.join(root, "docs", "configuration.md")

describe("the settings table of docs/configuration.md", () => {
  it("is the one generated from OPTION_FIELDS and docs/settings/ (to update it: node scripts/settings-table.js --write)", () => {
    const doc = fs.readFileSync(DOC, "utf8")
    expect(readTable(doc)).toBe(table)
  })

  it("resolves every in-page link of the table to a heading of docs/configuration.md", () => {
    const doc = fs.readFileSync(DOC, "utf8")
    const anchors = new Set(
      doc
        .split("\n")
        .filter((line) => /^#{1,6} /.test(line))
        .map((line) =>
          line
            .replace(/^#+ /, "")
            .trim()
            .toLowerCase()
            .replace(/[^\p{L}\p{N} _-]/gu, "")
            .replace(/ /g, "-")
        )
    )
    const linked = [...table.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1])
    expect(linked.length).toBeGreaterThan(0)
    expect(linked.filter((anchor) => !anchors.has(anchor))).toEqual([])
  })

  it("has one row per option with its variable, its default as the provider applies it, and its secrets marked", () => {
    expect(table.split("\n")).toHaveLength(2 + Object.keys(OPTION_FIELDS).length)
    expect(row("expiryDays")).toMatch(/^\| `REFPAY_EXPIRY_DAYS` \| `expiryDays` \| `7` \|/)
    expect(row("connectTimeoutMs")).toContain("| `5000` |")
    expect(row("authUrl")).toContain("| `http://localhost:4010/auth` in sandbox |")
    expect(row("cancelPath")).toContain("| `/dpm/payments-gwproxy/v2/payments/cancel` |")
    expect(row("clientId")).toMatch(/\| — \(required\) \| \*\*Secret\.\*\* .*\(#the-refpay-sandbox\)/)
    expect(row("reminderHoursBeforeExpiry")).toContain("`REFPAY_REMINDER_HOURS`")
    expect(row("account")).toMatch(/^\| — \(medusa-config only\) \|/)
    expect(row("expiryDays")).not.toContain("**Secret.**")
  })

  it("takes each option's prose from docs/settings/<option>.md, its line breaks read as spaces", () => {
    expect(row("expiryDays")).toMatch(/\| Days a reference stays payable \(D\+7\)\. \|$/)
    expect(row("storePaymentRequests")).toContain("(`POST /store/refpay/orders/:id/payment-requests`)")
  })

  it("refuses an option without prose and prose without an option, naming each file", () => {
    const { expiryDays, ...rest } = prose
    expect(expiryDays).toBeTruthy()
    expect(() => renderSettingsTable(OPTION_FIELDS, rest)).toThrow(
      "option expiryDays has no prose: write what it is in docs/settings/expiryDays.md"
    )
    expect(() => renderSettingsTable(OPTION_FIELDS, { ...prose, expiryWeeks: "Weeks." })).toThrow(
      "docs/settings/expiryWeeks.md describes no option of OPTION_FIELDS"
    )
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "settings-prose-"))
    try {
      fs.writeFileSync(path.join(dir, "README.md"), "# Not an option\n")
      fs.writeFileSync(path.join(dir, "expiryDays.md"), "Days a reference\nstays payable.\n")
      expect(readSettingsProse(dir)).toEqual({ expiryDays: "Days a reference\nstays payable." })
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("--write replaces only what lies between the markers", () => {
    const readme = `# Title\n\nBefore.\n${START}\n| old |\n${END}\n\nAfter.\n`
    const written = replaceTable(readme, "| new |")
    expect(written).toBe(`# Title\n\nBefore.\n${START}\n| new |\n${END}\n\nAfter.\n`)
    expect(replaceTable(written, "| new |")).toBe(written)
    expect(() => readTable("# no markers")).toThrow(/settings-table:start/)
  })

  it("prints the same table from the command line, and --check agrees with the file", () => {
    const script = path.join(root, "scripts", "settings-table.js")
    const printed = execFileSync(process.execPath, [script], { cwd: root, encoding: "utf8" })
    expect(printed).toBe(`${table}\n`)
    expect(() => execFileSync(process.execPath, [script, "--check"], { cwd: root, stdio: "pipe" })).not.toThrow()
  })
})

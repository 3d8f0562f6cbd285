#!/usr/bin/env node
"use strict"
// `node scripts/settings-table.js [--write | --check]`: prints the settings table of docs/configuration.md. It joins
// the provider's one list of options (OPTION_FIELDS in src/config/options-schema.ts: name, variable, default, secret or
// not) with what each option is, written once in docs/settings/<option>.md; an option without its file, or a file
// without its option, stops it. With `--write`, puts the table into docs/configuration.md between the
// `<!-- settings-table:start -->` and `<!-- settings-table:end -->` markers and leaves the rest of the file as it is;
// with `--check`, exits 1 when the file's table is not the generated one. scripts/__tests__/settings-table.spec.ts
// fails in both cases too.

const fs = require("node:fs")
const path = require("node:path")
const { parseArgs } = require("node:util")

const root = path.resolve(__dirname, "..")
const DOC = path.join(root, "docs", "configuration.md")
const DOC_NAME = "docs/configuration.md"
const PROSE = path.join(root, "docs", "settings")
/** docs/settings/README.md says what the folder is; every other .md there is one option's prose. */
const PROSE_README = "README.md"
const START = "<!-- settings-table:start -->"
const END = "<!-- settings-table:end -->"

const code = (value) => `\`${value}\``
const cell = (text) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ")

/** The Default column: the sandbox's URL, the client's path, the schema's default, or "required". */
function shownDefault(field) {
  if (field.sandboxDefault) return `${code(field.sandboxDefault)} in sandbox`
  if (field.clientDefault) return code(field.clientDefault)
  const parsed = field.schema.safeParse(undefined)
  if (!parsed.success) return "— (required)"
  const value = parsed.data
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return "—"
  if (value === "") return "empty"
  return code(String(value))
}

/** What each option is, from docs/settings/<option>.md (Markdown; its line breaks become spaces in the table). */
function readSettingsProse(dir = PROSE) {
  const prose = {}
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith(".md") || name === PROSE_README) continue
    prose[name.slice(0, -".md".length)] = fs.readFileSync(path.join(dir, name), "utf8").trim()
  }
  return prose
}

/** Every option has its prose and every prose file its option; otherwise the error names each one and its file. */
function checkProse(fields, prose) {
  const problems = [
    ...Object.keys(fields)
      .filter((key) => !prose[key])
      .map((key) => `option ${key} has no prose: write what it is in docs/settings/${key}.md`),
    ...Object.keys(prose)
      .filter((key) => !(key in fields))
      .map((key) => `docs/settings/${key}.md describes no option of OPTION_FIELDS: rename or remove it`),
  ]
  if (problems.length > 0) throw new Error(`settings table: ${problems.join("; ")}`)
}

/** The settings table, one row per option, in the list's order, each with its prose. */
function renderSettingsTable(fields, prose) {
  checkProse(fields, prose)
  const rows = Object.entries(fields).map(([key, field]) => {
    const variable = field.env ? code(field.env) : "— (medusa-config only)"
    const meaning = field.secret ? `**Secret.** ${prose[key]}` : prose[key]
    return `| ${variable} | ${code(key)} | ${cell(shownDefault(field))} | ${cell(meaning)} |`
  })
  return ["| Variable | Option | Default | What it is |", "|---|---|---|---|", ...rows].join("\n")
}

function markers(doc) {
  const start = doc.indexOf(START)
  const end = doc.indexOf(END)
  if (start < 0 || end < start)
    throw new Error(`${DOC_NAME} has no ${START} ... ${END} markers around the settings table`)
  return { from: start + START.length, to: end }
}

/** The table the document holds between the markers. */
function readTable(doc) {
  const { from, to } = markers(doc)
  return doc.slice(from, to).trim()
}

/** The document with the text between the markers replaced by the table. */
function replaceTable(doc, table) {
  const { from, to } = markers(doc)
  return `${doc.slice(0, from)}\n${table}\n${doc.slice(to)}`
}

function loadOptionFields() {
  require("ts-node").register({
    transpileOnly: true,
    swc: true,
    project: path.join(root, "tsconfig.json"),
    compilerOptions: { module: "commonjs" },
  })
  return require(path.join(root, "src", "config", "options-schema.ts")).OPTION_FIELDS
}

function main() {
  const { values } = parseArgs({
    options: { write: { type: "boolean", default: false }, check: { type: "boolean", default: false } },
  })
  const table = renderSettingsTable(loadOptionFields(), readSettingsProse())
  if (!values.write && !values.check) {
    process.stdout.write(`${table}\n`)
    return
  }
  const before = fs.readFileSync(DOC, "utf8")
  const after = replaceTable(before, table)
  if (after === before) {
    process.stderr.write(`${DOC_NAME}: the settings table is up to date\n`)
    return
  }
  if (values.check) {
    process.stderr.write(
      `${DOC_NAME}: the settings table differs from OPTION_FIELDS and docs/settings/; run node scripts/settings-table.js --write\n`
    )
    process.exitCode = 1
    return
  }
  // Written beside and renamed over, so a reader never sees half a document.
  const temporary = `${DOC}.${process.pid}.tmp`
  fs.writeFileSync(temporary, after)
  fs.renameSync(temporary, DOC)
  process.stderr.write(`${DOC_NAME}: settings table written\n`)
}

module.exports = { renderSettingsTable, readSettingsProse, readTable, replaceTable, START, END, DOC }

if (require.main === module) {
  try {
    main()
  } catch (error) {
    process.stderr.write(`${error.message}\n`)
    process.exitCode = 1
  }
}

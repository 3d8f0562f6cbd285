"use strict"
// Every entry point an installed package offers through its `exports`, made concrete (a pattern such as
// "./providers/*" becomes one specifier per matching file the package really ships), and a check that loads each one
// from a shop folder the way the shop's own code would. Used by `npm run demo` (resolve only: fast) and by the
// packed-package test (require and import: catches a missing file, a missing `files` entry or a broken build).

const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")

/** Every file of the package, as "./relative/path" (node_modules excluded). */
function packageFiles(packageDir) {
  const out = []
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules") continue
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) visit(full)
      else out.push(`./${path.relative(packageDir, full).split(path.sep).join("/")}`)
    }
  }
  visit(packageDir)
  return out.sort()
}

/** [condition, target] pairs of one exports value: a string is `default`; nested conditions are flattened. */
function targets(value, condition = "default") {
  if (typeof value === "string") return [[condition, value]]
  if (value === null || typeof value !== "object") return []
  return Object.entries(value).flatMap(([name, inner]) => targets(inner, name))
}

/**
 * The exports key Node picks for `subpath` ("./x/y"): an exact key, else the pattern whose part before "*" is
 * longest (Node's PATTERN_KEY_COMPARE). A file a broader pattern could reach may be shadowed by a narrower one.
 */
function chosenKey(keys, subpath) {
  if (keys.includes(subpath)) return subpath
  let best
  for (const key of keys) {
    const star = key.indexOf("*")
    if (star === -1) continue
    const before = key.slice(0, star)
    const after = key.slice(star + 1)
    if (!subpath.startsWith(before) || !subpath.endsWith(after) || subpath.length < key.length) continue
    if (!best || before.length > best.indexOf("*") || (before.length === best.indexOf("*") && key.length > best.length))
      best = key
  }
  return best
}

/**
 * The concrete entry points: [{ specifier, mode: "require" | "import" | "file", target }] ("file": declarations, CSS), where `target` is the file the
 * exports map names ("./.medusa/server/src/providers/refpay/index.js"). Patterns are expanded over the files the
 * package ships, keeping only specifiers Node would really route through that pattern. An entry whose file is not
 * shipped (or a pattern matching none) comes back with `missing: true` so the caller can report it.
 */
function exportEntries(packageDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8"))
  const exportsMap = typeof manifest.exports === "string" ? { ".": manifest.exports } : (manifest.exports ?? {})
  const keys = Object.keys(exportsMap)
  const files = packageFiles(packageDir)
  const entries = []
  for (const [key, value] of Object.entries(exportsMap)) {
    for (const [condition, target] of targets(value)) {
      // TypeScript's declarations and a stylesheet are read by a compiler or a bundler, never loaded by Node: they
      // must be shipped, nothing more.
      const mode =
        condition === "types" || !/\.(c|m)?js(on)?$/.test(target)
          ? "file"
          : condition === "import"
            ? "import"
            : "require"
      const name = (subpath) => (subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`)
      if (!key.includes("*")) {
        entries.push({ specifier: name(key), mode, target, ...(files.includes(target) ? {} : { missing: true }) })
        continue
      }
      const [before, after] = target.split("*")
      const [keyBefore, keyAfter] = key.split("*")
      const subpaths = files
        .filter((f) => f.startsWith(before) && f.endsWith(after) && f.length > before.length + after.length)
        .map((f) => ({ file: f, subpath: `${keyBefore}${f.slice(before.length, f.length - after.length)}${keyAfter}` }))
        .filter(({ subpath }) => chosenKey(keys, subpath) === key)
      if (subpaths.length === 0) entries.push({ specifier: name(key), mode, target, missing: true })
      for (const { file, subpath } of subpaths) entries.push({ specifier: name(subpath), mode, target: file })
    }
  }
  return entries
}

/** Runs `script` with node in `cwd` and returns the JSON it prints after the marker (what modules print is skipped). */
function runMarked(args, script, { cwd, env }) {
  const result = spawnSync(process.execPath, [...args, "-e", script], { cwd, env, encoding: "utf8" })
  const line = result.stdout.split("\n").find((l) => l.startsWith(MARKER))
  if (result.status !== 0 || !line) {
    return { error: `exit ${result.status}: ${result.stderr.trim().split("\n").slice(-5).join(" / ")}` }
  }
  return { value: JSON.parse(line.slice(MARKER.length)) }
}

const MARKER = "@@exports-check "

/**
 * Checks every entry of `packageName` from `shopDir`, in child processes started there (from this repository, Node
 * would resolve the name to the repository itself). Each entry must resolve to a file inside the shop's
 * node_modules; with `load: true`, "require" entries are also required, and "import" entries (resolved by Node's ESM
 * resolver) syntax-checked with `node --check`: not evaluated, because they are meant for a bundler (the admin
 * extensions' .mjs is built by Medusa's admin, and @medusajs/ui's ESM build does not load in plain Node).
 * Returns the problems, one line each; [] when everything works.
 */
function checkExports({ shopDir, packageName, load = false, env = process.env }) {
  const packageDir = path.join(shopDir, "node_modules", packageName)
  const seen = new Set()
  const entries = exportEntries(packageDir).filter((e) => {
    const id = `${e.mode} ${e.specifier}`
    return seen.has(id) ? false : seen.add(id)
  })
  const problems = entries
    .filter((e) => e.missing)
    .map((e) => `${e.specifier} (${e.mode}): ${e.target} is not in the package`)
  const present = entries.filter((e) => !e.missing)
  const inside = path.join(fs.realpathSync(shopDir), "node_modules") + path.sep

  const required = present.filter((e) => e.mode === "require").map((e) => e.specifier)
  const cjs = runMarked(
    [],
    `
    const inside = ${JSON.stringify(inside)}
    const problems = []
    for (const specifier of ${JSON.stringify(required)}) {
      try {
        const resolved = require.resolve(specifier, { paths: [process.cwd()] })
        if (!resolved.startsWith(inside)) problems.push(specifier + ": resolved outside the shop's node_modules: " + resolved)
        else if (${JSON.stringify(load)}) require(resolved)
      } catch (error) {
        problems.push(specifier + " (require): " + (error.code ? error.code + " " : "") + String(error.message).split("\\n")[0])
      }
    }
    process.stdout.write("\\n${MARKER}" + JSON.stringify(problems) + "\\n")
    process.exit(0)`,
    { cwd: shopDir, env }
  )
  problems.push(...(cjs.error ? [`the require check failed: ${cjs.error}`] : cjs.value))

  const imported = present.filter((e) => e.mode === "import").map((e) => e.specifier)
  if (imported.length === 0) return problems
  const esm = runMarked(
    ["--input-type=module"],
    `
    const out = []
    for (const specifier of ${JSON.stringify(imported)}) {
      try {
        out.push([specifier, new URL(import.meta.resolve(specifier)).pathname])
      } catch (error) {
        out.push([specifier, null, (error.code ? error.code + " " : "") + String(error.message).split("\\n")[0]])
      }
    }
    process.stdout.write("\\n${MARKER}" + JSON.stringify(out) + "\\n")`,
    { cwd: shopDir, env }
  )
  if (esm.error) return [...problems, `the import check failed: ${esm.error}`]
  for (const [specifier, file, error] of esm.value) {
    if (!file) problems.push(`${specifier} (import): ${error}`)
    else if (!fs.realpathSync(file).startsWith(inside))
      problems.push(`${specifier} (import): resolved outside the shop's node_modules: ${file}`)
    else if (load) {
      const check = spawnSync(process.execPath, ["--check", file], { encoding: "utf8" })
      if (check.status !== 0)
        problems.push(`${specifier} (import): ${file} does not parse: ${check.stderr.trim().split("\n")[0]}`)
    }
  }
  return problems
}

module.exports = { checkExports, exportEntries }

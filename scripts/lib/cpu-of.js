#!/usr/bin/env node
"use strict"
// Runs a command and, once it has ended, writes to a file the CPU-seconds it and every descendant it reaped used:
// how `npm test` gives each phase's own CPU when phases run at once (the run's total cannot be split afterwards).
//
//   node scripts/lib/cpu-of.js <cpu-file> <command> [args...]
//
// Output, exit code and signals pass through; a descendant left running past the command's end is not counted.
const { spawn } = require("node:child_process")
const fs = require("node:fs")
const { cpuSecondsWithChildren } = require("./cpu-time")

const [cpuFile, command, ...args] = process.argv.slice(2)
const child = spawn(command, args, { stdio: "inherit" })
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal))
child.on("error", (error) => {
  console.error(error)
  process.exit(1)
})
child.on("exit", (code, signal) => {
  const seconds = cpuSecondsWithChildren()
  if (seconds !== null) fs.writeFileSync(cpuFile, `${seconds}\n`)
  process.exit(code ?? (signal ? 1 : 0))
})

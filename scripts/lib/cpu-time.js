"use strict"
// CPU-seconds the test run used, read from Linux's /proc: the run's own process plus every child it has reaped (each
// phase's jest with its workers, the Medusa servers, PostgreSQL and chromium they started). Set beside the wall clock
// it says how busy the run kept the cores: a run that keeps them all busy gets shorter only by doing less.
const { execFileSync } = require("node:child_process")
const fs = require("node:fs")

function clockTicksPerSecond() {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
}

/** CPU-seconds (user + system) of this process and its reaped descendants; null where /proc is not there. */
function cpuSecondsWithChildren() {
  let stat
  try {
    stat = fs.readFileSync("/proc/self/stat", "utf8")
  } catch {
    return null
  }
  // Fields after the command name (which may hold spaces, inside parentheses): state is field 3, so field n is
  // fields[n - 3]; cutime and cstime are fields 16 and 17 (proc(5)).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  const children = (Number(fields[13]) + Number(fields[14])) / clockTicksPerSecond()
  const own = process.cpuUsage()
  return children + (own.user + own.system) / 1e6
}

module.exports = { cpuSecondsWithChildren }

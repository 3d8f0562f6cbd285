"use strict"
// CPU time from Linux's /proc. The test run's closing line uses it (the run's own process plus every child it has
// reaped: each phase's jest with its workers, the Medusa servers, PostgreSQL and chromium they started), set beside the
// wall clock to say how busy the run kept the cores; the cluster suite's sampler reads its servers' with it.
const fs = require("node:fs")

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const TICKS_PER_SECOND = 100

/**
 * The fields of a /proc/<pid>/stat text after the command name (which may hold spaces, inside parentheses): state is
 * field 3 of proc(5), so field n is fields[n - 3] (utime 14, stime 15, cutime 16, cstime 17, pgrp 5).
 */
function statFields(stat) {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
}

/** CPU-seconds (user + system) of this process and its reaped descendants; null where /proc is not there. */
function cpuSecondsWithChildren() {
  let stat
  try {
    stat = fs.readFileSync("/proc/self/stat", "utf8")
  } catch {
    return null
  }
  const fields = statFields(stat)
  const own = process.cpuUsage()
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND + (own.user + own.system) / 1e6
}

module.exports = { TICKS_PER_SECOND, statFields, cpuSecondsWithChildren }

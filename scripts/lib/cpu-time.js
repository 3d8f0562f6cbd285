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

/**
 * CPU-seconds (user + system) of process `pid` and all its descendants, running or ended: each running process's own
 * and its reaped children's, summed over the tree; null where /proc is not there. Unlike cpuSecondsWithChildren it
 * counts processes still running (servers, PostgreSQL), so a suite can say what one of its tests cost.
 */
function treeCpuSeconds(pid = process.pid) {
  const processes = new Map()
  let entries
  try {
    entries = fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))
  } catch {
    return null
  }
  for (const entry of entries) {
    try {
      const fields = statFields(fs.readFileSync(`/proc/${entry}/stat`, "utf8"))
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
      processes.set(Number(entry), { parent: Number(fields[1]), ticks })
    } catch {
      // the process ended meanwhile
    }
  }
  const inTree = (candidate) => {
    for (let at = candidate; at > 1; at = processes.get(at)?.parent ?? 0) if (at === pid) return true
    return false
  }
  let ticks = 0
  for (const [candidate, { ticks: own }] of processes) if (inTree(candidate)) ticks += own
  return ticks / TICKS_PER_SECOND
}

module.exports = { TICKS_PER_SECOND, statFields, cpuSecondsWithChildren, treeCpuSeconds }

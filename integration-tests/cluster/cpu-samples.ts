// CPU time of the cluster's processes and of the whole machine, sampled while something runs, so a figure can say
// which cores were busy over an exact span (Linux /proc; the cluster phase runs on Linux only).
import fs from "node:fs"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TICKS_PER_SECOND, statFields } = require("../../scripts/lib/cpu-time") as {
  TICKS_PER_SECOND: number
  statFields(stat: string): string[]
}
const SAMPLE_EVERY_MS = 250

interface Sample {
  atMs: number
  /** Busy and total CPU time of the machine, all cores (poll runs). */
  machineBusy: number
  machineTotal: number
  /** CPU time of each watched process group (poll runs). */
  groups: number[]
}

function machineTicks(): { busy: number; total: number } {
  const cpu = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number)
  const total = cpu.reduce((a, b) => a + b, 0)
  const idle = cpu[3]! + (cpu[4] ?? 0) // idle + iowait
  return { busy: total - idle, total }
}

/** utime + stime of every process in the group `pgid` (a `medusa start` and its children). */
function groupTicks(pgid: number): number {
  let ticks = 0
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const fields = statFields(fs.readFileSync(`/proc/${entry}/stat`, "utf8"))
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks
}

export class CpuSampler {
  private readonly samples: Sample[] = []
  private readonly timer: NodeJS.Timeout

  constructor(private readonly pgids: number[]) {
    this.sample()
    this.timer = setInterval(() => this.sample(), SAMPLE_EVERY_MS)
  }

  private sample(): void {
    const machine = machineTicks()
    this.samples.push({
      atMs: Date.now(),
      machineBusy: machine.busy,
      machineTotal: machine.total,
      groups: this.pgids.map(groupTicks),
    })
  }

  stop(): void {
    clearInterval(this.timer)
    this.sample()
  }

  /**
   * Over the samples spanning [fromMs, toMs]: the share of the machine's cores that were busy, and the CPU seconds
   * the watched process groups used together.
   */
  between(fromMs: number, toMs: number): { machine_busy_share: number; processes_cpu_s: number } {
    const before = [...this.samples].reverse().find((s) => s.atMs <= fromMs) ?? this.samples[0]!
    const after = this.samples.find((s) => s.atMs >= toMs) ?? this.samples[this.samples.length - 1]!
    const total = after.machineTotal - before.machineTotal
    const groups = after.groups.reduce((sum, g, i) => sum + g - before.groups[i]!, 0)
    return {
      machine_busy_share: total > 0 ? Math.round(((after.machineBusy - before.machineBusy) / total) * 100) / 100 : 0,
      processes_cpu_s: groups / TICKS_PER_SECOND,
    }
  }
}

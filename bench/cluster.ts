import { spawnSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"

/**
 * The cluster's figures (`--only=cluster`): how a poll run's checks spread over the processes that share Medusa's
 * Redis event bus, measured by the cluster phase's own test (a throwaway PostgreSQL and Redis, the demo shop built
 * and run as two shared servers behind the load balancer; integration-tests/cluster/spread-checks.ts), which the
 * bench runs and whose figures file it reads. Several minutes: most of it is building and starting the cluster.
 */

const ROOT = path.resolve(__dirname, "..")
const FIGURES_FILE = path.join(ROOT, ".test-artifacts", "cluster", "several-servers", "figures.json")
const SPREAD_TEST = "distributes a poll run's checks over both shared servers"

interface SpreadRun {
  checks: number
  read_twice: string[]
  machine_busy_share: number
  processes_cpu_ms_per_check: number
}

interface SpreadFigures {
  cluster_checks_per_s_1: number
  cluster_checks_per_s_2: number
  ratio_2_to_1: number
  one_process: SpreadRun
  two_processes: SpreadRun
}

export async function clusterFigures(log: (line: string) => void): Promise<Record<string, number>> {
  fs.rmSync(FIGURES_FILE, { force: true })
  log(`cluster: npm test -- --cluster -t "${SPREAD_TEST}" (its output in .test-artifacts/jest-cluster.log)...`)
  const run = spawnSync(process.execPath, [path.join(ROOT, "scripts", "test.js"), "--cluster", "-t", SPREAD_TEST], {
    cwd: ROOT,
    // The size of the recorded figures (npm test checks 2,000).
    env: { ...process.env, REFPAY_CLUSTER_SPREAD_CHECKS: "4000" },
    stdio: ["ignore", "ignore", "inherit"],
  })
  if (run.status !== 0) throw new Error(`the cluster's spread test failed (exit ${run.status}); see its log`)
  const spread = (JSON.parse(fs.readFileSync(FIGURES_FILE, "utf8")) as { poll_checks_spread: SpreadFigures })
    .poll_checks_spread
  return {
    cluster_checks_per_s_1: spread.cluster_checks_per_s_1,
    cluster_checks_per_s_2: spread.cluster_checks_per_s_2,
    cluster_checks_ratio_2_to_1: spread.ratio_2_to_1,
    cluster_spread_checks: spread.two_processes.checks,
    cluster_spread_read_twice: spread.two_processes.read_twice.length + spread.one_process.read_twice.length,
    cluster_machine_busy_share_1: spread.one_process.machine_busy_share,
    cluster_machine_busy_share_2: spread.two_processes.machine_busy_share,
    cluster_cpu_ms_per_check_1: spread.one_process.processes_cpu_ms_per_check,
    cluster_cpu_ms_per_check_2: spread.two_processes.processes_cpu_ms_per_check,
  }
}

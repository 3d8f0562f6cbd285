import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import type { TransactionStepsDefinition } from "@medusajs/framework/orchestration"
import { stepDefinitionsOf } from "../../../medusa-compat/workflow-steps"
import { refpaySyncPassWorkflow } from "../sync-workflow"

const WORKFLOWS_DIR = join(__dirname, "..", "..")

/** The pass's steps in order, as the engine runs them. */
function stepsOfPass(): TransactionStepsDefinition[] {
  return stepDefinitionsOf(refpaySyncPassWorkflow.getName())
}

function sourcesWithSteps(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" ? [] : sourcesWithSteps(path)
    const text = entry.name.endsWith(".ts") ? readFileSync(path, "utf8") : ""
    return text.includes("createStep(") ? [{ file: relative(WORKFLOWS_DIR, path), text }] : []
  })
}

describe("the sync's money steps, as Medusa's workflow engine sees them", () => {
  it("runs Medusa's capture and the late payment's refunds as steps of the sync that are never compensated", () => {
    const byName = new Map(stepsOfPass().map((step) => [step.action, step]))
    for (const name of [
      "refpay-capture-payment",
      "refpay-record-platform-refunds-cancelled-order",
      "refpay-record-platform-refunds-open-order",
      "refpay-refund-late-payment-cancelled-order",
      "refpay-refund-late-payment-open-order",
    ]) {
      expect({ name, noCompensation: byName.get(name)?.noCompensation }).toEqual({ name, noCompensation: true })
    }
    // What is not money is rolled back with the sync when a later step fails.
    for (const name of ["refpay-save-session", "cancel-order-as-step", "refpay-issue-reference-as-step"]) {
      expect({ name, noCompensation: byName.get(name)?.noCompensation }).toEqual({ name, noCompensation: false })
    }
  })

  it("captures before it records refunds, removes refunds cut short first, flags a late payment only after refunding it, and records the check last", () => {
    const order = stepsOfPass().map((step) => step.action)
    const at = (name: string) => {
      expect(order).toContain(name)
      return order.indexOf(name)
    }
    expect(at("refpay-capture-payment")).toBeGreaterThan(at("refpay-save-session"))
    expect(at("refpay-begin-platform-refund-recording")).toBeGreaterThan(at("refpay-capture-payment"))
    // A refund cut short is removed before the platform's refunds are recorded (a recording cut short is recorded
    // again, once) and before a late payment's refund (which Medusa would refuse while it counts the one cut short).
    expect(at("refpay-begin-platform-refund-recording")).toBeGreaterThan(at("refpay-remove-interrupted-refunds"))
    // Medusa's refund records the platform's refunds between the recording's beginning and its end.
    for (const order_ of ["cancelled-order", "open-order"]) {
      const recorded = at(`refpay-record-platform-refunds-${order_}`)
      expect(recorded).toBeGreaterThan(at("refpay-begin-platform-refund-recording"))
      expect(at("refpay-end-platform-refund-recording")).toBeGreaterThan(recorded)
    }
    expect(at("refpay-refund-late-payment-cancelled-order")).toBeGreaterThan(at("refpay-remove-interrupted-refunds"))
    // A sync that dies between the refund and the flag finds the late payment again and refunds it then.
    expect(at("refpay-refund-late-payment-cancelled-order")).toBeGreaterThan(at("refpay-find-late-payment"))
    expect(at("refpay-flag-late-payment")).toBeGreaterThan(at("refpay-refund-late-payment-cancelled-order"))
    expect(at("refpay-flag-late-payment")).toBeGreaterThan(at("refpay-refund-late-payment-open-order"))
    expect(order.at(-1)).toBe("refpay-record-check")
  })

  it("never runs a workflow inside a step: another workflow is composed with runAsStep", () => {
    const runsInsideSteps = sourcesWithSteps(WORKFLOWS_DIR).flatMap(({ file, text }) =>
      [...text.matchAll(/(\w+)\(container\)\s*\.run\(/g)].map((match) => `${file}: ${match[1]}`)
    )
    expect(runsInsideSteps).toEqual([])
  })
})

import { WorkflowManager, type TransactionStepsDefinition } from "@medusajs/framework/orchestration"

/**
 * The steps of a registered Medusa workflow, in order, as its engine runs them: for the contract checks that a fork
 * or a hook still sits where the plugin relies on it, and for the tests of the plugin's own workflows' step order.
 * No public API lists them: read from the workflow's definition (`flow_`), which is why this lives here.
 */
export function stepDefinitionsOf(workflowId: string): TransactionStepsDefinition[] {
  const flow = (WorkflowManager.getWorkflow(workflowId) as { flow_?: TransactionStepsDefinition } | undefined)?.flow_
  const steps: TransactionStepsDefinition[] = []
  const walk = (node?: TransactionStepsDefinition | TransactionStepsDefinition[]): void => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!node) return
    if (node.action) steps.push(node)
    walk(node.next)
  }
  walk(flow)
  return steps
}

/** The step ids of a registered Medusa workflow, in order. */
export function stepsOf(workflowId: string): string[] {
  return stepDefinitionsOf(workflowId).map((step) => step.action!)
}

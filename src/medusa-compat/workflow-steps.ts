import { WorkflowManager } from "@medusajs/framework/orchestration"

/**
 * The step ids of a registered Medusa workflow, in order, for the contract checks that a fork or a hook still sits
 * where the plugin relies on it. No public API lists them: read from the workflow's definition (`flow_`), which is
 * why this lives here and only the checks use it.
 */
export function stepsOf(workflowId: string): string[] {
  type Node = { action?: string; next?: Node | Node[] }
  const flow = (WorkflowManager.getWorkflow(workflowId) as { flow_?: Node } | undefined)?.flow_
  const ids: string[] = []
  const walk = (node?: Node | Node[]): void => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!node) return
    if (node.action) ids.push(node.action)
    walk(node.next)
  }
  walk(flow)
  return ids
}

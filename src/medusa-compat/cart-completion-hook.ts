import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"
import { stepsOf } from "./workflow-steps"

type ValidateHandler = Parameters<typeof completeCartWorkflow.hooks.validate>[0]

/**
 * Reliance on Medusa: completeCartWorkflow's `validate` hook runs inside the cart's lock, after the cart (with its
 * payment sessions' data) is loaded and before any order is created or payment session authorised; a throw there
 * refuses the completion with nothing left behind. The plugin also writes there (the customer's contact details and
 * the "completion started" mark on its session): it is the only hook the workflow exposes on 2.18 to 2.21
 * (`hooks: [validate]`; `beforePaymentAuthorization` and `orderCreated` are created but not returned).
 */
export function onCartCompletionValidate(handler: ValidateHandler): void {
  completeCartWorkflow.hooks.validate(handler)
}

const BEFORE = ["create-orders", "authorize-payment-session-step"]

export const cartCompletionHookReliance: MedusaReliance = {
  name: "cart-completion-hook",
  behaviour:
    "completeCartWorkflow exposes a validate hook that runs under the cart's lock, before the order is created and " +
    "before the payment session is authorised; the plugin checks and marks its session there.",
  upstream: "packages/core/core-flows/src/cart/workflows/complete-cart.ts",
  verified: VERIFIED_ON,
  usedBy: ["src/workflows/hooks/refpay-complete-cart.ts"],
  async check() {
    const hooks = (completeCartWorkflow as unknown as { hooks?: Record<string, unknown> }).hooks
    if (typeof hooks?.validate !== "function") throw new Error("completeCartWorkflow has no validate hook")
    const steps = stepsOf("complete-cart")
    const at = (id: string) => steps.indexOf(id)
    const late = BEFORE.filter(
      (id) => at(id) === -1 || at(id) < at("validate") || at("validate") < at("acquire-lock-step")
    )
    if (at("validate") === -1 || late.length)
      throw new Error(`the validate hook no longer runs under the lock before ${late.join(", ")} (steps: ${steps})`)
  },
}

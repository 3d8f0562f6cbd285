import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/**
 * Reliance on Medusa: an error raised in a workflow that another runs as a step (`runAsStep`) reaches the caller of
 * the outer run either as an Error or as a plain object (message, type, `__isMedusaError`), as 2.18 to 2.21 hand it
 * over. Made an Error again here, of Medusa's type when it was one, so callers (the routes' error mapping, the sync's
 * retry) always get an Error.
 */
export function asError(error: unknown): Error {
  if (error instanceof Error) return error
  const plain = (error ?? {}) as { message?: string; type?: string; __isMedusaError?: boolean }
  const message = plain.message ?? String(error)
  return plain.__isMedusaError
    ? new MedusaError(plain.type ?? MedusaError.Types.UNEXPECTED_STATE, message)
    : new Error(message)
}

const PROBE_MESSAGE = "refpay contract probe: refused"

/** An outer workflow that runs, as a step, one whose step refuses: defined on first use (names are global). */
let probe: ReturnType<typeof defineProbe> | undefined
function defineProbe() {
  const refuse = createStep("refpay-contract-probe-refuse", async () => {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, PROBE_MESSAGE)
  })
  const inner = createWorkflow("refpay-contract-probe-inner", () => {
    refuse()
    return new WorkflowResponse(true)
  })
  return createWorkflow("refpay-contract-probe-outer", () => {
    inner.runAsStep({ input: {} })
    return new WorkflowResponse(true)
  })
}

async function errorOfNestedRun(container: MedusaContainer): Promise<unknown> {
  probe ??= defineProbe()
  try {
    await probe(container).run({ input: {} })
    return undefined
  } catch (error) {
    return error
  }
}

export const runAsStepErrorsReliance: MedusaReliance = {
  name: "runas-step-errors",
  behaviour:
    "A MedusaError raised inside a workflow run as a step (runAsStep) reaches the outer run's caller as an Error or " +
    "a plain object carrying its message and type, which asError makes a MedusaError of the same type again.",
  upstream: "packages/core/workflows-sdk/src/utils/composer (runAsStep); packages/core/orchestration (error transport)",
  verified: VERIFIED_ON,
  usedBy: ["src/api/payment-requests.ts", "src/sync-triggers/sync-payment.ts"],
  async check(container) {
    const raw = await errorOfNestedRun(container)
    if (raw === undefined) throw new Error("the outer run succeeded although its nested workflow refused")
    const error = asError(raw)
    const type = (error as MedusaError).type
    if (error.message !== PROBE_MESSAGE || type !== MedusaError.Types.NOT_ALLOWED)
      throw new Error(`the nested refusal arrived as ${JSON.stringify({ message: error.message, type })}`)
  },
}

import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { periodOf, type Period } from "../../../../rules/owner-numbers"
import { selectAccount } from "../../../refpay-accounts"

/** The account and the period one of the owner's numbers routes is asked about. */
export async function numbersScope(
  container: MedusaContainer,
  query: { provider_id?: string; from?: string; to?: string },
  now = new Date()
): Promise<{ providerId: string; period: Period }> {
  const { providerId } = await selectAccount(container, query.provider_id)
  const period = periodOf(query, now)
  if ("error" in period) throw new MedusaError(MedusaError.Types.INVALID_DATA, `REFPAY numbers: ${period.error}`)
  return { providerId, period }
}

type NumbersQuery = { provider_id?: string; from?: string; to?: string }

/**
 * The GET handler of one view of the owner's numbers: the account and period asked for, and the view's numbers
 * under its own key (`{ provider_id, period, conversion: {...} }`).
 */
export function numbersView<T>(
  key: string,
  count: (container: MedusaContainer, providerId: string, period: Period) => Promise<T>
) {
  return async (req: AuthenticatedMedusaRequest<unknown, NumbersQuery>, res: MedusaResponse): Promise<void> => {
    const { providerId, period } = await numbersScope(req.scope, req.validatedQuery as NumbersQuery)
    res.status(200).json({ provider_id: providerId, period, [key]: await count(req.scope, providerId, period) })
  }
}

import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { listAttention } from "../attention-lists"
import { configuredSecrets } from "../../../../../config"
import { refpayProvider } from "../../../../../providers/refpay/refpay-providers"
import { AdminRefpayAttentionKind, type AdminRefpayAttentionQueryType } from "../../validators"

/**
 * `GET /admin/refpay/attention/:kind?limit=&offset=`: one page of the payments of one kind (expiring,
 * paid_after_cancellation, refund_mismatch, amount_mismatch, unknown_payment, platform_error), each with its order,
 * reference and money state.
 */
export async function GET(
  req: AuthenticatedMedusaRequest<unknown, AdminRefpayAttentionQueryType>,
  res: MedusaResponse
): Promise<void> {
  const kind = AdminRefpayAttentionKind.safeParse(req.params.kind)
  if (!kind.success) {
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `Unknown list "${String(req.params.kind).slice(0, 40)}": use one of ${AdminRefpayAttentionKind.options.join(", ")}`
    )
  }
  const query = req.validatedQuery as AdminRefpayAttentionQueryType
  const settings = (await refpayProvider(req.scope)).settings
  const page = await listAttention(
    req.scope,
    kind.data,
    { limit: query.limit, offset: query.offset },
    configuredSecrets(settings)
  )
  res.status(200).json(page)
}

import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { loadPaymentRows } from "../payment-rows"
import { configuredSecrets } from "../../../../config"
import { findSessionsByReference } from "../../../../medusa-compat/medusa-tables/session-queries"
import { refpayProvider } from "../../../../providers/refpay/refpay-providers"
import type { AdminRefpaySearchQueryType } from "../validators"

/**
 * `GET /admin/refpay/search?reference=&entity=&limit=&offset=`: the orders whose REFPAY reference (and entity, when
 * given) is exactly the one a customer quotes, newest first. Matched as text: "012345678" never finds "12345678".
 */
export async function GET(
  req: AuthenticatedMedusaRequest<unknown, AdminRefpaySearchQueryType>,
  res: MedusaResponse
): Promise<void> {
  const query = req.validatedQuery as AdminRefpaySearchQueryType
  const settings = (await refpayProvider(req.scope)).settings
  const ids = await findSessionsByReference(req.scope, { reference: query.reference, entity: query.entity })
  const pageIds = ids.slice(query.offset, query.offset + query.limit)
  const payments = await loadPaymentRows(req.scope, pageIds, configuredSecrets(settings))
  res.status(200).json({ payments, count: ids.length, limit: query.limit, offset: query.offset })
}

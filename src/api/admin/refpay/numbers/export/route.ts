import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { numbersScope } from "../numbers-scope"
import { providerIdSuffix } from "../../../../refpay-accounts"
import { periodPayments, MAX_EXPORT_ROWS } from "../../../../../medusa-compat/medusa-tables/period-payments"
import { periodPaymentsCsv } from "../../../../../rules/owner-numbers"
import type { AdminRefpayNumbersQueryType } from "../../validators"

/**
 * `GET /admin/refpay/numbers/export?provider_id=&from=&to=`: the references the account issued in the period as
 * the accountant's CSV (`periodPaymentsCsv`: `;`, decimal comma, UTF-8 with a byte order mark, Lisbon time), at most
 * MAX_EXPORT_ROWS rows: a longer period is refused with a message asking for a shorter one.
 */
export async function GET(
  req: AuthenticatedMedusaRequest<unknown, AdminRefpayNumbersQueryType>,
  res: MedusaResponse
): Promise<void> {
  const { providerId, period } = await numbersScope(req.scope, req.validatedQuery as AdminRefpayNumbersQueryType)
  const { rows, truncated } = await periodPayments(req.scope, providerId, period)
  if (truncated) {
    res.status(400).json({
      type: "invalid_data",
      message: `REFPAY numbers: more than ${MAX_EXPORT_ROWS} references in ${period.from} to ${period.to}; export a shorter period`,
    })
    return
  }
  const file = `refpay-${providerIdSuffix(providerId)}-${period.from}-${period.to}.csv`
  res.setHeader("content-type", "text/csv; charset=utf-8")
  res.setHeader("content-disposition", `attachment; filename="${file}"`)
  res.status(200).send(periodPaymentsCsv(rows))
}

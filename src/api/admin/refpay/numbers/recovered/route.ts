import { numbersView } from "../numbers-scope"
import { recovered } from "../../../../../medusa-compat/medusa-tables/owner-numbers"

/**
 * `GET /admin/refpay/numbers/recovered?provider_id=&from=&to=`: what the plugin recovered in the period: payments on
 * a reference the customer was reminded of, payments on a renewed reference, late payments refunded or kept.
 */
export const GET = numbersView("recovered", recovered)

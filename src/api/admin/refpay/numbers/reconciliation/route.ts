import { numbersView } from "../numbers-scope"
import { reconciliation } from "../../../../../medusa-compat/medusa-tables/reconciliation"

/**
 * `GET /admin/refpay/numbers/reconciliation?provider_id=&from=&to=`: per Lisbon day, what Medusa captured and refunded
 * for the account's REFPAY payments against what the platform last reported for them, and every payment where
 * the two differ, with its order.
 */
export const GET = numbersView("reconciliation", reconciliation)

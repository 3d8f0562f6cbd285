import { numbersView } from "../numbers-scope"
import { conversion } from "../../../../../medusa-compat/medusa-tables/owner-numbers"

/**
 * `GET /admin/refpay/numbers/conversion?provider_id=&from=&to=`: what became of the references the account
 * issued in the period (paid, waiting, expired, renewed, cancelled; counts and amounts, the share paid), references
 * issued and payments received per Lisbon day, and how many days the paid ones took.
 */
export const GET = numbersView("conversion", conversion)

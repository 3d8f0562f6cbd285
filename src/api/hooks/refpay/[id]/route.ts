/**
 * `POST /hooks/refpay/:id`: the plugin's webhook route for the REFPAY account `pp_refpay_<id>` when a shop has
 * several REFPAY accounts (each with its own webhook secret); the same handler as `/hooks/refpay`.
 */
export { POST } from "../route"

import type { RefpayPaymentView } from "../payment-view"

/** An awaiting reference as the views show it: the e-mail tests' common input. */
export const VIEW: RefpayPaymentView = {
  order_id: "order_01",
  payment_session_id: "payses_01",
  payment_collection_id: "pay_col_01",
  payment_id: "9f0e4c1a-6b1d-5a8e-9c3f-2d7b8e1f0a11",
  entity: "01234",
  reference: "000123450",
  amount_cents: 2498,
  amount_display: "24,98\u00a0€",
  currency: "EUR",
  status: "awaiting",
  platform_status: "WAITING",
  expires_at: "2026-11-27T10:00:00.000Z",
  created_at: "2026-11-20T10:00:00.000Z",
  expired: false,
  paid_after_cancellation: false,
  paid_after_cancellation_at: null,
  checked_at: "2026-11-20T10:00:00.000Z",
  do_not_ship: true,
}
export const ORDER = { id: "order_01", display_id: 7, email: "maria.silva@example.com" }
